// The package's `redact`: the whole catalogue (./more.ts completes ./shapes.ts). A module of its own,
// so that a bundle importing only `compact` does not link ./more.ts into what it loads first: esbuild
// places a module a lazily loaded chunk uses beside every live module that imports it, and this one is
// dead unless `redact` itself is imported.
import { redactor } from "./index.js";
import { completed } from "./more.js";

/** Replaces every recognised secret in `text`; everything else is returned as it was. */
export const redact = (text: string): string => completed(redactor).redact(text);
