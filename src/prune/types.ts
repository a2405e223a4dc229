// What pruning changed, item by item.

export interface PrunedItem {
  index: number;
  /** "shrunk": an output the model had not read yet, cut to its head, tail and error lines because whole it would not fit the window. */
  kind: "tool_output" | "duplicate" | "arguments" | "image" | "shrunk" | "reasoning";
  tokensBefore: number;
  tokensAfter: number;
}
