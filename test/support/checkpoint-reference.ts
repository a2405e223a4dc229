// The checkpoint's readings of a text as they were before round 10 read a text only where what they
// look for may be: the oracles of test/checkpoint-guards.
const PATH = /(?:^|[\s"'`(=])((?:\.{1,2}\/|\/|~\/)?(?:[\w@.+-]+\/)+[\w@.+-]+\.[A-Za-z0-9]{1,8})(?=$|[\s"'`),:;]|\.(?:\s|$))/g;
const pathText = (text: string): string => (text.startsWith("[output pruned") ? "" : text.slice(0, 8000));

/** src/facts/outcome.ts `pathsIn`, every text read. */
export const formerPathsIn = (text: string): string[] => [...new Set(Array.from(pathText(text).matchAll(PATH), (m) => m[1]))].slice(0, 100);

/** src/facts/outcome.ts `namesPath`, every text read. */
export const formerNamesPath = (text: string): boolean => new RegExp(PATH.source).test(pathText(text));

/** src/summarize/ledgers.ts: a plan's boxes in an agent's words, every text read. */
export const formerBoxes = (text: string): [string, string][] => [...text.matchAll(/^\s*[-*] \[([ xX])\] (.+)$/gm)].map((b) => [b[1].trim() ? "x" : " ", b[2]]);

/** src/summarizers/deterministic.ts: the URLs of Critical values, every text read. */
export const formerUrls = (text: string): string[] => [...text.matchAll(/\bhttps?:\/\/[^\s"'<>)]{4,2000}/g)].map((u) => u[0]);

/** src/summarizers/deterministic.ts `quotable`: the values of a call's arguments it quotes. */
export const formerQuoted = (args: Record<string, unknown>, keys: string[]): string => JSON.stringify(Object.fromEntries(keys.map((k) => [k, args[k]])));

/** src/facts/outcome.ts `verdict`'s judgement, "nothing failed" read first. */
export function formerFailed(text: string, isCommand: () => boolean, code: number | undefined): boolean {
  const t = text.trim();
  const nl = t.indexOf("\n");
  const first = nl < 0 ? t : t.slice(0, nl);
  const ERROR = /\b(?:error|exception|traceback|failed|failure|fatal|panic|denied)\b/i;
  return code !== undefined ? code !== 0 : !/\b0 (?:failures|failed|errors)\b/i.test(t.slice(-1000)) && (/^\s*(?:<tool_use_error>|exit code [1-9])/i.test(t) || ERROR.test(first) || (ERROR.test(t.slice(-300)) && isCommand()));
}

/** src/summarize/ledgers.ts `steps`, every word read by every pattern. */
export function formerSteps(command: string): { key: string; files: string[] }[] {
  const FILE_WORD = /^[^-&>|<$][^\s]*(?:\/[^\s]*|\.[A-Za-z0-9]{1,8})$/;
  return command
    .split(/&&|\|\||;/)
    .map((s) => s.split("|")[0].trim().split(/\s+/).filter((w) => w && !/^\w+=/.test(w)))
    .filter((w) => w.length && w[0] !== "cd")
    .map((w) => ({ key: w.slice(0, 2).join(" "), files: [...new Set(w.slice(2).map((x) => x.replace(/^["']|["']$/g, "").replace(/:\d+$/, "")).filter((x) => FILE_WORD.test(x)))] }));
}
