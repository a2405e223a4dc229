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

/** A transcript's fingerprint: the hash of its JSON (throws for messages that are not JSON). */
export const fingerprint = (messages: readonly unknown[]): string => hash53(JSON.stringify(messages));
