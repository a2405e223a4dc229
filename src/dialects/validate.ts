// Validation at the boundary, with valibot: each dialect's messages as one schema, errors that name the
// index, the path and the problem. The same schema is the dialect's `schema` (a Standard Schema), so
// users check their own data by the rules compaction reads it with.
import * as v from "valibot";
import { CompactionInputError } from "../errors.js";
import { isObject, isString, type StandardSchemaV1 } from "../schema.js";

/** A schema of one message (valibot). */
export type MessageSchema = v.GenericSchema;

/**
 * A value as an error quotes it: a short string in JSON quotes ("bot"); anything longer, or with a run
 * of 12 word characters (a key pasted in the wrong field), only by its length; anything else by type.
 */
export const quoted = (x: unknown) =>
  !isString(x) ? typeof x : x.length <= 24 && !/[\w-]{12}/.test(x) ? JSON.stringify(x) : `(a string of ${x.length} characters)`;

/** For parts (or blocks) of one type: what must hold, and the problem when it does not. */
export type PartRule = [type: string, ok: (p: Record<string, unknown>) => boolean, problem: string];

/**
 * A typed part: an object with a string "type", and the rule of its type. One check, never an object
 * schema: a part's problem stays at the part's path, and parts of types not named pass whole.
 */
export function part(rules: PartRule[], what: string) {
  const problem = (p: unknown) => {
    if (!isObject(p) || !isString(p.type)) return `${what} must be an object with a string "type"`;
    for (const [type, ok, why] of rules) if (p.type === type && !ok(p)) return why;
  };
  return v.custom((p) => problem(p) === undefined, (issue) => problem(issue.input)!);
}

/** Content that needs no check (a string, or null where allowed): `v.custom`, loaded anyway, rather than `v.unknown`, which would add its own code. */
const ANY = v.custom(() => true);

/**
 * Content: a string, or an array of parts (null and missing too where `nullable`); `wrong` otherwise.
 * Picked by its kind rather than a union, which would build an issue for the branch that fails.
 */
export function content(parts: MessageSchema, wrong: string, nullable = false) {
  const list = v.array(parts);
  const fails = v.custom(() => false, wrong);
  // `message`: what `fields` says when content is missing.
  const pick = Object.assign(
    v.lazy((c) => (typeof c === "string" || (nullable && c == null) ? ANY : Array.isArray(c) ? list : fails)),
    { message: wrong },
  );
  return nullable ? v.optional(pick) : pick;
}

/** The problems of one valibot result, each "path: problem" (the path below the message). */
function problems(issues: v.BaseIssue<unknown>[]): string[] {
  return issues.map((issue) => {
    const path = (issue.path ?? []).slice(1).map((p) => p.key).join(".");
    return path ? `${path}: ${issue.message}` : issue.message;
  });
}

const NOT_OBJECT = v.custom(isObject, "a message must be an object");

/**
 * A message's rules, picked by its role or type: looked up rather than each variant tried in turn, as
 * every pass (`plan` too) validates the whole transcript. Not an object (an array is none): a problem.
 */
export const message = (pick: (m: Record<string, unknown>) => MessageSchema) => v.lazy((m) => (isObject(m) ? pick(m) : NOT_OBJECT));

/** The schema of a transcript: an array of messages. */
export const messages = (message: MessageSchema) => v.array(message, "must be an array of messages");

/** A transcript's schema as its Standard Schema (valibot's own `~standard`), typed as the messages `M` it accepts. */
export const standard = <M>(rules: MessageSchema) => rules as unknown as StandardSchemaV1<unknown, M[]>;

/** Checks a transcript against its schema; throws a CompactionInputError naming the first bad message. */
export function validateWith<M>(schema: v.GenericSchema, input: unknown): M[] {
  const r = v.safeParse(schema, input);
  if (r.success) return input as M[]; // the caller's own array and messages: compaction keeps identity
  const at = r.issues[0].path?.[0]?.key;
  if (typeof at !== "number") throw new CompactionInputError(-1, problems(r.issues));
  throw new CompactionInputError(at, problems(r.issues.filter((i) => i.path?.[0]?.key === at)));
}
