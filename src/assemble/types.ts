// What assembly changed to keep tool calls paired with their results.

/** What assembly changed to keep every tool call paired with its result. */
export interface Sanitized {
  /** Input indices of messages that lost tool results answering no call of their group. */
  removedOrphanResults: number[];
  /** Ids of calls that had no result and were given a stub one. */
  stubbedCalls: string[];
  /** Input indices of messages the sanitizer rewrote (orphan results removed or stub results added). */
  rewritten: number[];
  /** Messages dropped because nothing was left of them, and messages inserted for stubs. */
  messagesDropped: number;
  messagesAdded: number;
}
