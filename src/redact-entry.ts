// The entry's `redact`. A function of its own, not a re-export, so that the catalogue loads only with
// who uses it: esbuild follows the entry's imports (re-exports too) through every module some code
// uses, and a re-export of src/redact/ put its ~7 KB gzip in every `{ compact }` and `{ plan }` bundle.
// This module holds code of its own, so nothing passes through it unless `redact` is imported.
import { redactor } from "./redact/index.js";
import { completed } from "./redact/more.js";

/** Replaces recognised secrets by shape (docs/API.md): the whole catalogue (./redact/more.ts completes ./redact/shapes.ts). */
export function redact(text: string): string {
  return completed(redactor).redact(text);
}
