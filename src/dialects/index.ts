// Dialect lookup by the name given in options.dialect.
import type { DialectName } from "../types.js";
import { aiSdkDialect } from "./ai-sdk.js";
import { anthropicDialect } from "./anthropic.js";
import { openai } from "./openai.js";
import type { Dialect } from "./view.js";

const DIALECTS: Record<DialectName, Dialect<any>> = { openai, anthropic: anthropicDialect, "ai-sdk": aiSdkDialect };

export function dialectOf(name: DialectName | undefined): Dialect<any> {
  const d = DIALECTS[name ?? "openai"];
  if (!d) throw new RangeError(`context-compactor: unknown dialect ${JSON.stringify(name)} (expected "openai", "anthropic" or "ai-sdk")`);
  return d;
}
