// The short references that one-liners, ledgers and the archive share: apart from the archive's
// writer, which loads lazily, so that citing a reference does not bring it along.

/**
 * How a pass cites messages: the passes before it, or with `options.refIndexes` also the caller's own
 * number of each input message, which stays the same whatever position a later pass sees it at.
 */
export type Refs = number | { pass: number; own: readonly (number | null | undefined)[] };

/**
 * `#212` on the first pass, `#2.212` on the third: references of different passes never collide. With
 * the caller's own numbers, `#<own>`, and `#<pass>.<index>` (`#0.5` too) for a message without one.
 */
export function refOf(index: number, pass: Refs = 0): string {
  if (typeof pass === "number") return pass ? `#${pass}.${index}` : `#${index}`;
  const own = pass.own[index];
  return own == null ? `#${pass.pass}.${index}` : `#${own}`;
}
