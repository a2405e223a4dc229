// What a pass that rewrites loads on first use (src/compact.ts): pruning and writing the result. A
// no-op pass, most of them (a compactor is asked before every model call), loads neither. Redaction
// is handed to both by the pass, never imported here: a file this import() and `plan` both reach is
// put by esbuild in a chunk every import loads (`{ plan }` would carry the whole catalogue).
export { passesBehind } from "./archive/passes.js";
export { prune } from "./prune/index.js";
export { written } from "./result.js";
export { summaryStage } from "./summarize/load.js";
