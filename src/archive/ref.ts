// The short references that one-liners, ledgers and the archive share: apart from the archive's
// writer, which loads lazily, so that citing a reference does not bring it along.

/** `#212` on the first pass, `#2.212` on the third: references of different passes never collide. */
export function refOf(index: number, pass = 0): string {
  return pass ? `#${pass}.${index}` : `#${index}`;
}
