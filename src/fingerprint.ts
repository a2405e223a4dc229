// A cheap 53-bit hash of text (cyrb53): enough to recognise a transcript prefix seen before. Shared by
// the AI SDK history and the worker's sessions, which keep a compacted span in place of what it replaced.

export function hash53(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  return mix53(h1, h2);
}

/** cyrb53's final mix of its two chains, in base 36. */
export function mix53(h1: number, h2: number): string {
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

const encoder = new TextEncoder();
const bytes = new Uint8Array(16_384);
const words = new Int32Array(bytes.buffer);

/**
 * cyrb53 over the UTF-8 of the messages' JSON (each 64 messages' array), read 4 bytes a step: twice
 * as fast as hash53, which reads a UTF-16 unit a step, and no large string (the whole transcript's
 * JSON would be flattened, i.e. copied, before it could be read). The text is encoded as much as fits
 * at a time into one small buffer, the last word of each piece padded with zeros (JSON's UTF-8 has no
 * NUL byte). Words are read in the platform's byte order: little-endian wherever JS runs. Throws for
 * messages that are not JSON.
 */
export function jsonHash53(messages: readonly unknown[]): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  let i = 0;
  do {
    for (let json = JSON.stringify(messages.slice(i, (i += 64))); json; ) {
      const { read, written } = encoder.encodeInto(json, bytes);
      json = json.slice(read);
      bytes.fill(0, written, written + 3);
      for (let k = 0; k < (written + 3) >> 2; k++) {
        h1 = Math.imul(h1 ^ words[k], 2654435761);
        h2 = Math.imul(h2 ^ words[k], 1597334677);
      }
    }
  } while (i < messages.length);
  return mix53(h1, h2);
}

/** A transcript's fingerprint: the hash of its JSON (throws for messages that are not JSON). */
export const fingerprint = (messages: readonly unknown[]): string => hash53(JSON.stringify(messages));
