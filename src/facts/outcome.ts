// What a tool call's output says of it: the command it ran, the files it names, whether it failed
// and its error lines. The summarizer's ledgers and material both judge outputs by these.
import { exitCode } from "./call.js";

const PATH = /(?:^|[\s"'`(=])((?:\.{1,2}\/|\/|~\/)?(?:[\w@.+-]+\/)+[\w@.+-]+\.[A-Za-z0-9]{1,8})(?=$|[\s"'`),:;]|\.(?:\s|$))/g;
export const PATH_KEYS = ["file_path", "path", "filename", "notebook_path"];
const ERROR = /\b(?:error|exception|traceback|failed|failure|fatal|panic|denied)\b/i;
/** An output that says at its start that the tool failed. */
const FAILED_START = /^\s*(?:<tool_use_error>|exit code [1-9])/i;
const PASSED = /\b0 (?:failures|failed|errors)\b/i;

/** A command's first line; a shell command given as argv (`["bash", "-lc", "…"]`) by its script. */
export function commandOf(args: Record<string, unknown>): string | undefined {
  let c = args.command ?? args.cmd;
  if (Array.isArray(c)) c = c.at(-1);
  if (typeof c !== "string" || !/\s/.test(c.trim())) return undefined; // one word: an editor sub-command
  return c.trim().split("\n")[0].trim();
}

/** A trimmed text's first line. */
function firstLine(t: string): string {
  const nl = t.indexOf("\n");
  return nl < 0 ? t : t.slice(0, nl);
}

/**
 * Whether a whole tool output failed: a stated exit status decides; else an error word in its first
 * line, or, for a command, in its last lines (where a run sums up), unless its end says nothing
 * failed. `isCommand` is asked only then.
 */
export function failedOutput(text: string, isCommand: () => boolean, exit = () => exitCode(text)): boolean {
  const code = exit();
  const t = text.trim();
  // "nothing failed" read last: only where an error word is (most outputs have none)
  return code !== undefined ? code !== 0 : (FAILED_START.test(t) || ERROR.test(firstLine(t)) || (ERROR.test(t.slice(-300)) && isCommand())) && !PASSED.test(t.slice(-1000));
}

/** `failedOutput`, and a failed output's error lines (the first few distinct). */
export function verdict(text: string, isCommand: () => boolean, exit = () => exitCode(text)): { failed: boolean; errorLines: string[] } {
  const failed = failedOutput(text, isCommand, exit);
  if (!failed) return { failed, errorLines: [] };
  const t = text.trim();
  // Every distinct one a continuing agent may need (a test run's failures), within reason.
  const lines = [...new Set(t.slice(0, 20_000).split("\n").map((x) => x.trim()).filter((x) => ERROR.test(x)))].slice(0, 12);
  return { failed, errorLines: lines.length ? lines : [firstLine(t).trim()] };
}

/**
 * Where a text's paths are read: its first 8,000 characters (a long output, a file read, names its few
 * paths that matter early, if at all); none in a pruned output's one-liner.
 */
const pathText = (text: string): string => (text.startsWith("[output pruned") ? "" : text.slice(0, 8000));

/** The distinct file paths a text names (the first hundred, early in it: `pathText`). */
export function pathsIn(text: string): string[] {
  const read = pathText(text);
  return read.includes("/") ? [...new Set(Array.from(read.matchAll(PATH), (m) => m[1]))].slice(0, 100) : []; // a path has a slash
}

const PATH_ONE = new RegExp(PATH.source);
/** Whether `pathsIn(text)` finds any: read up to the first. */
export function namesPath(text: string): boolean {
  const read = pathText(text);
  return read.includes("/") && PATH_ONE.test(read); // a path has a slash
}
