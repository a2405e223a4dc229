// The secret-redaction corpus of test/fixtures/secrets, and what counts as its secret value.
import { readFileSync } from "node:fs";
import { FIXTURES } from "./fixtures.js";

export interface Sample {
  /** The line as JSON tool output carries it: newlines and tabs written as \n and \t. */
  escaped: string;
  /** The same line with real newlines and tabs. */
  line: string;
  kind: string;
}

function read(file: string): Sample[] {
  return readFileSync(`${FIXTURES}secrets/${file}`, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((row) => {
      const tab = row.lastIndexOf("\t");
      const escaped = row.slice(0, tab);
      return { escaped, line: escaped.replace(/\\n/g, "\n").replace(/\\t/g, "\t"), kind: row.slice(tab + 1) };
    });
}

export const positives = () => read("positives.txt");
export const negatives = () => read("negatives.txt");

/**
 * The corpus does not mark the secret inside a line, so this is our reading of it, by shape only:
 * the password of `scheme://user:password@` or of `curl -u user:password`; the value of a line that
 * is a single `name: value` or `name = value`; the value (with a digit, or of 20+
 * characters in both cases) assigned to a token/key/secret/password name; otherwise the longest token (split on whitespace,
 * quotes and `=:,;()<>`) that mixes letters and digits; otherwise the longest token. A positive is
 * caught when that value no longer appears in the redacted line.
 */
export function secretValue(line: string): string {
  const userinfo = /:\/\/[^\s:/@]+:([^\s/@]+)@/.exec(line) ?? /(?:-u|--user)\s+["']?[^\s"':]+["']?:["']?([^\s"'@]+)/.exec(line);
  if (userinfo) return userinfo[1].replace(/^\{|\}$/g, "");
  const pair = /^\s*[\w.-]{1,40}\s*[:=]\s*["']?([^\s"']+)["']?\s*$/.exec(line);
  if (pair) return pair[1];
  const named = /(?:token|key|secret|password)["']?\s*[:=]\s*["']?([^\s"',;]{8,})/i.exec(line);
  if (named && (/\d/.test(named[1]) || (named[1].length >= 20 && /[a-z]/.test(named[1]) && /[A-Z]/.test(named[1])))) return named[1];
  const tokens = line.split(/[\s"'`=:,;()<>]+/).filter(Boolean);
  const mixed = tokens.filter((t) => /[A-Za-z]/.test(t) && /\d/.test(t));
  const pick = (ts: string[]) => ts.reduce((a, b) => (b.length > a.length ? b : a), "");
  return pick(mixed.length ? mixed : tokens);
}
