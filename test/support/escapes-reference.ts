// A plain reading of how redaction treats escapes (`redactEncoded` in src/redact/index.ts, which scans
// by hand for speed): regions of overlapping windows, decoded with String.replace, each decoded
// character remembering where it stood. test/redact-equivalence.test.ts checks both agree.

const ESCAPE = /\\u00[2-7][\dA-Fa-f]|%[2-7][\dA-Fa-f]/g;
const TOKEN_CHAR = /[\w+/=.~:@&?-]/;
const RUN_CHAR = /[\w+/=.~:@&?%\\-]/;

/** Whether the backslash at `i` follows an odd run of backslashes: `\\\\u0041` is a backslash, then "u0041" (round 8's rule). */
function escapedBackslash(text: string, i: number): boolean {
  let n = 0;
  while (text[i - 1 - n] === "\\") n++;
  return n % 2 === 1;
}

/** `text` after redaction's escape pass, given the shape pass (`redactShapes`). */
export function encodedReference(text: string, redactShapes: (text: string) => string): string {
  // Windows: each run of token characters around an escape (8 characters or more), 48 characters
  // before it on its line, and after it the rest of its line up to 64 characters and the token there.
  const windows: [from: number, start: number, stop: number][] = [];
  let ran = 0;
  for (const m of text.matchAll(ESCAPE)) {
    if (m.index < ran) continue;
    let start = m.index;
    while (start > ran && RUN_CHAR.test(text[start - 1])) start--;
    let end = m.index + m[0].length;
    while (end < text.length && RUN_CHAR.test(text[end])) end++;
    ran = end;
    if (end - start < 8) continue;
    let stop = Math.min(text.length, end + 64);
    while (stop < end + 256 && stop < text.length && RUN_CHAR.test(text[stop])) stop++;
    if (text.slice(end, stop).includes("\n")) stop = text.indexOf("\n", end);
    const from = Math.max(0, start - 48, text.lastIndexOf("\n", start - 1) + 1);
    windows.push([from, start, stop]);
  }
  // Regions: windows that overlap, merged.
  const regions: [from: number, start: number, stop: number][] = [];
  for (const w of windows) {
    const last = regions.at(-1);
    if (last && w[0] <= last[2]) last[2] = Math.max(last[2], w[2]);
    else regions.push([...w]);
  }
  let out = "";
  let at = 0;
  for (const [from, start, stop] of regions) {
    // each character of the window and the index in `text` it came from
    const chars: string[] = [];
    const origin: number[] = [];
    for (let i = from; i < start; i++) chars.push(text[i]), origin.push(i);
    let i = start;
    for (const m of text.slice(start, stop).matchAll(ESCAPE)) {
      const c = String.fromCharCode(parseInt(m[0].slice(-2), 16));
      if (!TOKEN_CHAR.test(c) || (m[0][0] === "\\" && escapedBackslash(text, start + m.index))) continue;
      for (; i < start + m.index; i++) chars.push(text[i]), origin.push(i);
      chars.push(c), origin.push(i);
      i += m[0].length;
    }
    for (; i < stop; i++) chars.push(text[i]), origin.push(i);
    origin.push(stop);
    if (chars.length === stop - from) continue; // nothing decoded
    const window = chars.join("");
    const clean = redactShapes(window);
    if (clean === window) continue;
    let head = 0;
    while (clean[head] === window[head]) head++;
    let tail = 0;
    while (tail < Math.min(clean.length, window.length) - head && clean.at(-1 - tail) === window.at(-1 - tail)) tail++;
    out += text.slice(at, origin[head]) + clean.slice(head, clean.length - tail);
    at = origin[window.length - tail];
  }
  return out + text.slice(at);
}
