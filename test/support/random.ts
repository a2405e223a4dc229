// Random strings for generators, as a key's body is random: fast-check's own strings lean to the
// edges of their alphabet (`aaaA…`, `000…`, `/a00A/0a/…`), which no rule takes for a key.
import fc from "fast-check";

export const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
export const BASE64 = `${ALNUM}+/`;

/** `n` characters of `alphabet`, drawn by a xorshift from `seed`. */
export function randomString(seed: number, n: number, alphabet = BASE64): string {
  let x = seed | 1;
  return Array.from({ length: n }, () => ((x ^= x << 13), (x ^= x >>> 17), (x ^= x << 5), alphabet[(x >>> 0) % alphabet.length])).join("");
}

/** Arbitrary `randomString`s of `min` to `max` characters. */
export const randomStrings = (min: number, max: number, alphabet: string) =>
  fc.tuple(fc.integer(), fc.integer({ min, max })).map(([seed, n]) => randomString(seed, n, alphabet));
