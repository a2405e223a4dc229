// Message-by-message validation at the boundary, with errors that name the index and the problem.
// Hand-written: a few checks per dialect cost far less of the core's bundle than a schema library
// (valibot took ~2.2 KB gzip of the 15 KB budget of `import { compact }`; see docs/NOTES.md).
import { CompactionInputError } from "../errors.js";

/** The problems of one message, each "path: problem". */
export type MessageCheck = (m: Record<string, unknown>) => string[];

/** For parts (or blocks) of one type: what must hold, and the problem when it does not. */
export type PartRule = [type: string, ok: (p: Record<string, unknown>) => boolean, problem: string];

export const isString = (x: unknown): x is string => typeof x === "string";
export const isObject = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === "object" && !Array.isArray(x);

/**
 * A value as an error quotes it: a short string in JSON quotes ("bot"); anything longer, or with a run
 * of 12 word characters (a key pasted in the wrong field), only by its length; anything else by type.
 */
export const quoted = (x: unknown) =>
  !isString(x) ? typeof x : x.length <= 24 && !/[\w-]{12}/.test(x) ? JSON.stringify(x) : `(a string of ${x.length} characters)`;

export function validateEach(messages: unknown, check: MessageCheck): unknown[] {
  if (!Array.isArray(messages)) throw new CompactionInputError(-1, ["must be an array of messages"]);
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (!isObject(m)) throw new CompactionInputError(i, ["a message must be an object"]);
    const issues = check(m);
    if (issues.length) throw new CompactionInputError(i, issues);
  }
  return messages;
}

/** The problems of an array of typed parts at `path` (`what`: "a content part", "a block"…). */
export function partIssues(parts: unknown[], path: string, rules: PartRule[], what: string): string[] {
  const out: string[] = [];
  parts.forEach((p, k) => {
    if (!isObject(p) || !isString(p.type)) out.push(`${path}.${k}: ${what} must be an object with a string "type"`);
    else for (const [type, ok, problem] of rules) if (p.type === type && !ok(p)) out.push(`${path}.${k}: ${problem}`);
  });
  return out;
}

/** The problems of `content`: a string (or null, where `nullable`), or an array of parts. */
export function contentIssues(content: unknown, rules: PartRule[], what: string, wrong: string, nullable = false): string[] {
  if (isString(content) || (nullable && (content === null || content === undefined))) return [];
  return Array.isArray(content) ? partIssues(content, "content", rules, what) : [`content: ${wrong}`];
}
