// Dialect lookup by the name given in options.dialect.
import type { DialectName } from "../types.js";
import { openai } from "./openai.js";
import type { Dialect } from "./view.js";

export function dialectOf(name: DialectName | undefined): Dialect<any> {
  if (name === undefined || name === "openai") return openai;
  throw new RangeError(`context-compactor: dialect ${JSON.stringify(name)} is not supported yet (supported: "openai")`);
}
