// HTTP options name their dialect; the core takes the dialect object.
import type { z } from "@hono/zod-openapi";
import type { CompactOptions } from "../src/index.js";
import { dialects } from "../src/convert.js";
import type { Options } from "./schemas.js";

export type HttpOptions = z.infer<typeof Options>;

export function coreOptions({ dialect, ...rest }: HttpOptions): CompactOptions<unknown> {
  return { ...rest, dialect: dialect ? dialects[dialect] : undefined };
}
