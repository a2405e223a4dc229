// The default cache rates of report.cache, a module of their own: the entry exports them, and would
// otherwise load the cache report's code with every import. Sources and dates: docs/NOTES.md.
import type { CacheRates } from "./types.js";

/** Anthropic: a 5-minute cache write costs 1.25× the input price, a read 0.1×. */
export const ANTHROPIC_CACHE_RATES: CacheRates = { read: 0.1, write: 1.25 };
/** OpenAI: writes cost nothing extra, a read 0.1× (GPT-5 family; older models 0.25× or 0.5×, GPT-4o 0.5×: pass yours). */
export const OPENAI_CACHE_RATES: CacheRates = { read: 0.1, write: 1 };
