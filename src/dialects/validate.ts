// Message-by-message validation at the boundary, with errors that name the index and the problem.
import * as v from "valibot";
import { CompactionInputError } from "../errors.js";

function describe(issues: v.BaseIssue<unknown>[]): string[] {
  return issues.map((issue) => {
    const path = v.getDotPath(issue);
    return path ? `${path}: ${issue.message}` : issue.message;
  });
}

export function validateEach(messages: unknown, schema: v.GenericSchema): unknown[] {
  if (!Array.isArray(messages)) throw new CompactionInputError(-1, ["must be an array of messages"]);
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (m === null || typeof m !== "object" || Array.isArray(m)) throw new CompactionInputError(i, ["a message must be an object"]);
    const result = v.safeParse(schema, m);
    if (!result.success) throw new CompactionInputError(i, describe(result.issues));
  }
  return messages;
}
