// What a pass that rewrites loads on first use (src/compact.ts): pruning, the summary stage and
// writing the result, all run by ./pass.ts. A no-op pass, most of them (a compactor is asked before
// every model call), loads none of it. Redaction is handed in by the pass, never imported here: a
// file this import() and `plan` both reach is put by esbuild in a chunk every import loads (`{ plan }`
// would carry the whole catalogue).
export { rewritten } from "./pass.js";
