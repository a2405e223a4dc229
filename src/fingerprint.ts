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
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

const encoder = new TextEncoder();
const bytes = new Uint8Array(16_384);
const words = new Int32Array(bytes.buffer);

/**
 * state.sent's hash of a transcript (src/report/cache.ts): cyrb53's chains over the UTF-8 of its JSON,
 * 4 bytes a step (hash53 reads a UTF-16 unit a step), 64 messages' array at a time: the whole
 * transcript's JSON would be one large string, copied (flattened) before it could be read. Each
 * batch's text is encoded as much as fits at a time into one small zeroed buffer, the last word padded
 * with zeros (JSON's UTF-8 has no NUL byte). Words are read in the platform's byte order, little-endian
 * wherever JS runs. Throws for messages that are not JSON.
 */
export function jsonHash53(messages: readonly unknown[]): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < messages.length; ) {
    for (let json = JSON.stringify(messages.slice(i, (i += 64))); json; ) {
      const { read, written } = encoder.encodeInto(json, bytes.fill(0));
      json = json.slice(read);
      for (let k = 0; k < (written + 3) >> 2; k++) {
        h1 = Math.imul(h1 ^ words[k], 2654435761);
        h2 = Math.imul(h2 ^ words[k], 1597334677);
      }
    }
  }
  return hash53(`${h1} ${h2}`); // hash53's final mix, over the two chains
}

/** A transcript's fingerprint: the hash of its JSON (throws for messages that are not JSON). */
export const fingerprint = (messages: readonly unknown[]): string => hash53(JSON.stringify(messages));
