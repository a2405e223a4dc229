// What a pass removed or pruned, whole and redacted, by reference.

/** One removed or pruned message, redacted: its text, its calls' arguments, its tool results. */
export interface ArchivedMessage {
  role: string;
  text?: string;
  calls?: { name: string; arguments: string }[];
  results?: string[];
  /** Reasoning (thinking) the pass pruned from the message. */
  reasoning?: string[];
}

/** Plain JSON: archived messages by reference. Archives of successive passes never share a key. */
export type Archive = Record<string, ArchivedMessage>;
