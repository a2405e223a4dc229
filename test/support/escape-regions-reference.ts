// The escape pass's regions as main found them before round 13's `floor` lane (src/redact/index.ts at
// 04a6212, `encodedOf`'s loop, verbatim but for its names): each window's line break looked for
// character by character, as round 8's (test/support/redact-oracle.ts `encodedBefore` reads it too).
// test/redact-escape-regions.test.ts checks `regionsOf` finds the same.

const ESCAPE = /\\u00[2-7][\dA-Fa-f]|%[2-7][\dA-Fa-f]/g;
const RUN_ON = /[\w+/=.~:@&?%\\-]*/y;
const runCode = (c: number) => c < 128 && /[\w+/=.~:@&?%\\-]/.test(String.fromCharCode(c));

export function regionsReference(text: string): number[] {
  const regions: number[] = [];
  let ran = 0;
  for (ESCAPE.lastIndex = 0; ESCAPE.test(text); ) {
    let s = ESCAPE.lastIndex - (text.charCodeAt(ESCAPE.lastIndex - 3) === 37 ? 3 : 6);
    while (s > ran && runCode(text.charCodeAt(s - 1))) s--;
    RUN_ON.lastIndex = ESCAPE.lastIndex;
    RUN_ON.test(text);
    const e = (ESCAPE.lastIndex = ran = RUN_ON.lastIndex);
    if (e - s < 8) continue;
    let end = Math.min(text.length, e + 64);
    while (end < e + 256 && end < text.length && runCode(text.charCodeAt(end))) end++;
    for (let i = e; i < end; i++) if (text.charCodeAt(i) === 10) end = i;
    let f = s;
    while (f > 0 && f > s - 48 && text.charCodeAt(f - 1) !== 10) f--;
    if (regions.length && f <= regions[regions.length - 1]) regions[regions.length - 1] = Math.max(regions[regions.length - 1], end);
    else regions.push(f, s, end);
  }
  return regions;
}
