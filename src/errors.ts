import type { FailureKind } from "./summarize/types.js";

/** Thrown (or rejected with) when the input is not a valid message list. */
export class CompactionInputError extends Error {
  override readonly name = "CompactionInputError";
  /** Index of the first offending message, or -1 when the input as a whole is wrong. */
  readonly index: number;
  /** Every problem found in that message, each as "path: problem". */
  readonly issues: string[];

  constructor(index: number, issues: string[]) {
    const where = index < 0 ? "messages" : `messages[${index}]`;
    super(`${where}: ${issues.join("; ")}`);
    this.index = index;
    this.issues = issues;
  }
}

/** Summarizers throw this to say precisely how they failed. */
export class SummarizerError extends Error {
  override readonly name = "SummarizerError";
  readonly kind: FailureKind;
  readonly status?: number;
  constructor(kind: FailureKind, message: string, status?: number) {
    super(message);
    this.kind = kind;
    if (status !== undefined) this.status = status;
  }
}
