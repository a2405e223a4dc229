// The boundary's checks, shared by the dialects, the options and the state: valibot, with problems
// said in words, and the Standard Schema type the dialects' rules are offered as.
import * as v from "valibot";

/** A Standard Schema (standardschema.dev, v1): what `dialect.schema` is, for any library that reads one. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  };
}
export type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<{ readonly message: string; readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined }> };

export const isString = (x: unknown): x is string => typeof x === "string";
export const isObject = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === "object" && !Array.isArray(x);

/**
 * An object (extra fields kept) whose fields each say their own problem, a missing one too: valibot
 * reports a missing key with the object's message, so that message looks up the field's.
 */
export function fields<E extends v.ObjectEntries>(entries: E, problem = "a message must be an object") {
  return v.looseObject(entries, (issue) => {
    const key = issue.path?.[0]?.key;
    // Not one of its fields: the object itself is wrong (or missing, asked by the object around it).
    const own = typeof key === "string" && Object.hasOwn(entries, key) ? (entries[key] as { message?: string | ((i: typeof issue) => string) }).message : problem;
    return typeof own === "function" ? own(issue) : (own ?? problem);
  });
}
