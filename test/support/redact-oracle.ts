// The redaction engine's checks as they were before issue 29's per-match work (src/redact at 6285aa2),
// kept verbatim as oracles: test/redact-checks.test.ts asserts the rewritten checks (by char code, in
// place, cheap rejects first) decide exactly as these did on generated and real candidates.
import { apply } from "../../src/redact/index.js";
import { ID_WORDS, PARTS as p, STAND_IN, type Shape, VENDOR, runOf, token, wordStart } from "../../src/redact/shapes.js";
import { wordsOf } from "../../src/redact/triggers.js";
import { regionsReference } from "./escape-regions-reference.js";
/**
 * Names whose value is a credential whatever it looks like: a password, a passphrase, a secret, an
 * API key, credentials; a token under a longer name (`GITHUB_TOKEN`, `access_token`, `authToken`).
 * Not a login, an auth scheme, a cookie, nor a bare `token` (an LLM's logprobs name words so).
 */
const CREDENTIAL_NAME = /^(?:pass(?:w(?:or)?d|phrase)?|pwd|[_-]pw|secret|credentials?|(?:api|private|signing|encryption|master)[_-]?key)|^token/i;
/** Words a name's value may be that are no value: types, literals, settings, fetch's `credentials` modes, prose. */
export const NOT_A_VALUE = new Set(
  (
    "bearer string str char text varchar bytes byte buffer number int integer long bool boolean any unknown object optional option secretstr secretstring secret " +
    "none null nil undefined true false yes no on off enabled disabled include omit same-origin required optional missing invalid incorrect wrong " +
    "expired correct empty stored needed changed updated reset rotated revoked provided given generated hashed encrypted masked hidden set unset " +
    "the this that your mine here there being still also not what which where when after before from with into used"
  ).split(" "),
);
/**
 * A reference, not a value: `$X`, `${X}`, `%X%`, `{{ x }}`, `@Microsoft.KeyVault(…)`, a YAML tag or
 * alias (`!vault`, `*default`), a path of identifiers (`env.DB_PASSWORD`, `os.environ`, `self.token`).
 */
const REFERENCE = "^(?:[$%@!*&#]|\\{\\{|\\[\\[)";
/**
 * Identifiers joined by dots, none of which holds a vendor's token (whole, or up to a `_`), nor a
 * marker's stand-in: code (round 12's rule, as first written: split at each `.` and `_`).
 */
export const codePath = (value: string) =>
  /^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$/.test(value) &&
  !value.includes(STAND_IN) &&
  !value.split(/(?<=[._])/).some((_, i, pieces) => token(pieces.slice(i).join("")) || token(pieces[i].replace(/[._]$/, "")));
/** A call or an interpolation inside the value: `[parameters('adminPassword')]`, `#{Pw}`. */
const CALL = String.raw`\w\(|[$#{]\{`;
/**
 * How documentation shows a value it does not give: cut short (`sk-ant-...`, `sk_live_…`), masked
 * (`•••••`, `****`, one character repeated), or an instruction (`insert_key_here`, `enter-token`).
 */
const SHOWN = String.raw`\.\.\.|…|^[•●·*]|^(?:insert|enter|replace|put|add)[_-]|[_-]here$`;
const REPEATED = /^(.)\1+$/;
/**
 * A placeholder as a whole value, not a password that contains one: a word of its own (`example`,
 * `my-fake-key`, `changeme`), AWS's `…EXAMPLE`, a run of x or * with at most a short prefix
 * (`sk_live_xxxxxxxx`). `Example2024!`, `notfake123` and a random key holding `xxxx` are passwords.
 */
const PLACEHOLDER_VALUE = /^(?:\$[{(A-Za-z_]|%[A-Za-z_(]|<|\{[{A-Za-z_]|your[_-])|(?:^|[^A-Za-z0-9])(?:example|fake|dummy|changeme|placeholder|redacted)(?:$|[^A-Za-z0-9])|^[\w-]{0,12}?[xX*]{4,}(?:[-_][xX*]{4,})*[A-Za-z0-9]{0,4}$/i;
/** A named value that stands for one: a whole placeholder, AWS's `…EXAMPLE`, or as documentation writes one. */
const standsFor = (value: string) => PLACEHOLDER_VALUE.test(value) || /EXAMPLE(?:KEY)?$/.test(value) || p.documented(value);
/** A reference, a call, a small number, a value shown but not given: one pattern for all. */
const NOT_VALUE = new RegExp(`${REFERENCE}|${CALL}|${SHOWN}|^\\d{1,5}[.,:;!?]*$`, "i");
/** An identifier in code (`password: hashedPassword,`, `token = accessToken;`): it names the credential rather than holding it. */
const IDENTIFIER = /^[A-Za-z_]+$/;
/** A credential's word as a word of an identifier: `hashed_password`, `accessToken`, `apiKey`, `secret`. */
const NAMES_CREDENTIAL = /(?:^|_)(?:secret|pass(?:word)?|pwd|token|key|credentials?|auth)s?(?:_|$)|[a-z](?:Secret|Pass(?:word)?|Pwd|Token|Key|Credentials?|Auth)|^(?:secret|pass(?:word)?|pwd|token|key|credentials?|auth)[A-Z]/;

/**
 * Whether `value` is the credential a credential's name gives, whatever its entropy: a name of
 * CREDENTIAL_NAME (a word of its own, `DB_PASSWORD`, not `bypass`) assigned a value on its line, as a
 * flag (`--db-password x`), an argument (`getenv("API_TOKEN", "x")`) or in prose ("the password is
 * x"); unless the value is plainly none: a reference, a type, a literal or a small number, a path
 * without a random run (`*_FILE`), a placeholder, a code identifier.
 */
export function namedValue(value: string, before: string, after: string, match: string, group: number): boolean {
  if (!CREDENTIAL_NAME.test(match) || (/^pass|^pwd|^[_-]pw/i.test(match) && !passwordNamed(before, match))) return false;
  if (/^token/i.test(match) && !p.nameCode(before.charCodeAt(before.length - 1))) return false; // a bare `token`
  const between = match.slice(0, match.lastIndexOf(value));
  if (between.includes("\n")) return false; // a value on the next line is a YAML block's next key
  const quoted = /["'`]\s{0,2}$/.test(between);
  const prose = group === 4 && /\s(?:is|was)\s/i.test(between);
  // after a bare space, only a flag (`--password x`) or prose names a value
  if (group === 4 && !prose && !between.includes(",") && !/(?:^|[\s=:])--?[\w.-]*$/.test(before)) return false; // (round 16: a flag after an operator too)
  if (/:$/.test(between)) return false; // `name:value` unspaced is a label (`io.jsonwebtoken:jjwt-…`)
  if (between.includes("*") && !/\*[\w.-]*$/.test(before)) return false; // (round 17: emphasis opens at a label's name, not a heading's last word)
  // (each test only where it can hold: this runs for every value a credential's name gives)
  let end = value.length;
  while (end > 1 && ".,:;!?".includes(value[end - 1])) end--;
  const word = end < value.length ? value.slice(0, end) : value;
  if ((word.length <= 12 && NOT_A_VALUE.has(word.toLowerCase())) || NOT_VALUE.test(value) || standsFor(value)) return false;
  if (value.charCodeAt(0) === value.charCodeAt(1) && REPEATED.test(value)) return false;
  if (value.includes(".") && (codePath(value) || p.VERSION.test(value))) return false; // (round 12: a path holding a vendor's token is no code)
  if (value.includes("/") && p.reference(value) && !p.mixedRun(value, 5)) return false; // (round 6: a location with a key-long run is no reference)
  if (!quoted && IDENTIFIER.test(value) && (NAMES_CREDENTIAL.test(value) || (!prose && /^[,;)\]}[]/.test(after)))) return false; // (round 17: `[` after a type or a subscript)
  // beside a quoted name, a word is the next item of a list or object (`["secret", "token"]`, `"Secret","command":`)
  if (between.includes(",") && IDENTIFIER.test(value)) return false;
  // prose names a value where it reads as one: quoted, with a digit, a symbol or mixed case, or a word
  // after a password's name that is no predicate ("the password is letmein", not "… is too short")
  return !prose || quoted || /[\d\W_]|[a-z][A-Z]/.test(word) || (/^pass|^pwd/i.test(match) && proseWord(word));
}

/**
 * Words that follow "the password is" as a predicate, not a value: adverbs, articles, prepositions,
 * adjectives of a policy or a store (NOT_A_VALUE holds the rest), and the suffixes of participles
 * and adjectives (`hashed`, `expiring`, `sensitive`, `configurable`, `currently`).
 */
export const PREDICATE = new Set(
  (
    "too very case only just now then also always never usually probably currently simply really actually still in on at to for of by as a an " +
    "my our his her its their and or but so because since like same different ok okay fine good bad weak strong short long valid known unknown " +
    "secure insecure safe unsafe public private default temporary temp new old blank visible shown sent kept saved located available unavailable " +
    "gone lost mandatory below above all shared its it is was be been ready done set whatever whichever itself found read written overwritten " +
    "chosen taken forgotten broken stolen known shown put left somewhere elsewhere anywhere nowhere unique random simple easy hard trivial " +
    "plain plaintext cleartext per under behind inside outside within without"
  ).split(" "),
);
const PREDICATE_SUFFIX = /(?:ed|ing|[^f]ly|able|ible|ive|ful|less|ous)$/;
/** A lower-case word in prose after a password's name that reads as its value. */
const proseWord = (word: string) => {
  const w = word.toLowerCase();
  return w.length >= 4 && !NOT_A_VALUE.has(w) && !PREDICATE.has(w) && !PREDICATE_SUFFIX.test(w);
};

const named = (value: string) => /^[$:&?@%]/.test(value) || p.standsFor(value);

/** The prose password rule's check (./more.ts's PROSE_PASSWORD shape) for its third group. */
export function proseValue(v: string, match: string): boolean {
  if (/^passphrase[ \t]{1,4}["'\x60]?[^ \t]*$/i.test(match)) return false; // a bare passphrase names a run of words only
  const word = v.replace(/[.,;:!?]+$/, "");
  return !/^[A-Z][a-z]+-[A-Z]/.test(v) && !named(v) && !NOT_VALUE.test(v) && !NOT_A_VALUE.has(word.toLowerCase()) && !p.reference(v) && (/[\d\W_]|[a-z][A-Z]/.test(word) || proseWord(word));
}

// ./shapes.ts
export const NOT_AFTER = /(?:public|csrf|xsrf|site)[_-]?$|(?<![A-Za-z\d])_auth$|(?<![A-Za-z])not[_-]$/i;
export const passwordNamed = (before: string, match: string) => /^(?:pass|pwd|[_-]pw)/i.test(match) && (!/[a-z]p|[A-Z]P/.test(before.slice(-1) + match[0]) || before.endsWith("PG")); // (round 17: Postgres' PGPASSWORD)
const nameCode = p.nameCode;
const SECRET_WORD = p.SECRET_WORD;
const spaceCode = (c: number) => c === 32 || (c >= 9 && c <= 13) || c === 160;
const quoteCode = (c: number) => c === 34 || c === 39;
function nameBefore(before: string): string | undefined {
  let i = before.length;
  if (quoteCode(before.charCodeAt(i - 1))) i--;
  if (before.charCodeAt(i - 1) === 92) i--;
  for (let n = 0; n < 4 && spaceCode(before.charCodeAt(i - 1)); n++) i--;
  const op = before.charCodeAt(i - 1);
  if (op === 62 && before.charCodeAt(i - 2) === 61) i -= 2; // =>
  else if (op === 61 || op === 58) i--; // = :
  else return undefined;
  for (let n = 0; n < 4 && spaceCode(before.charCodeAt(i - 1)); n++) i--;
  if (quoteCode(before.charCodeAt(i - 1))) i--;
  if (before.charCodeAt(i - 1) === 92) i--;
  const end = i;
  while (i > 0 && end - i <= 60 && nameCode(before.charCodeAt(i - 1))) i--;
  const first = before.charCodeAt(i);
  const letter = (first >= 97 && first <= 122) || (first >= 65 && first <= 90);
  return end > i && end - i <= 60 && letter && !(i > 0 && nameCode(before.charCodeAt(i - 1))) ? before.slice(i, end) : undefined;
}
// (its words and word boundaries are ./shapes.ts's own, unchanged: the check before them is what was rewritten)
function idWord(name: string): boolean {
  const start = wordStart(name, name.length);
  if (name.length - start > 8) return false; // no id word is longer ("checksum")
  const word = name.slice(start).toLowerCase();
  if (ID_WORDS.has(word) || /^sha\d*$/.test(word)) return true;
  if (start < 2 || (word !== "key" && !/^\d+$/.test(word))) return false;
  const previous = name.slice(wordStart(name, start - 1), start - 1).toLowerCase();
  return (previous === "sha" && /^\d+$/.test(word)) || (word === "key" && (previous === "cache" || previous === "idempotency"));
}
export function idNamed(before: string): boolean {
  const name = nameBefore(before);
  return !!name && idWord(name) && !SECRET_WORD.test(name.replace(/credentials?/gi, ""));
}

/**
 * The trigger scan as it was before a fresh process's first pass was measured (src/redact/triggers.ts
 * at 7545742): each word's prefilters found by reading every list for every word (~3 ms cold).
 * test/redact-triggers.test.ts asserts the scan built by prefixes tells the same on every text.
 */
export function triggersBefore(prefilters: (RegExp | undefined)[]): (text: string) => Uint8Array {
  const LEADING = /^(?:(?:[\w :=<@~,'"-]|\\[.(])(?![?*{]))*/;
  const lists = prefilters.map(wordsOf);
  const always = Uint8Array.from(lists, (l) => +!l);
  const holds = prefilters.map((r) => (r?.ignoreCase && r.source.split("|").every((a) => LEADING.exec(a)![0] === a) ? 2 : 1));
  const words = [...new Set(lists.flat())].filter((w) => w !== undefined).sort((a, b) => b.length - a.length);
  const within = new Map(words.map((w) => [w, lists.flatMap((l, k) => (l?.some((v) => w.startsWith(v)) ? [k] : []))]));
  const any = new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).join("|"), "g");
  return (text) => {
    const found = always.slice();
    const low = text.toLowerCase();
    any.lastIndex = 0;
    for (let m = any.exec(low); m; m = any.exec(low)) {
      for (const k of within.get(m[0])!) found[k] = holds[k];
      any.lastIndex = m.index + 1;
    }
    return found;
  };
}

/**
 * ./index.ts's `redactShapes` before the trigger scan (src/redact at 1b3a01a): every shape of the
 * catalogue applied in turn. test/redact-triggers.test.ts and test/redact-checks.test.ts assert the
 * scan and its no-rescan rule redact the same.
 */
export const shapesBefore = (shapes: Shape[], text: string, about = false) => shapes.reduce((t, s) => apply(t, s, about && s.context), text);

// ./index.ts's `apply`, before issue 29's pattern work: documentation's example values, as a pattern
export const EXAMPLE = /EXAMPLE$|[_/-](?:x{4,}|X{4,})$/;

// ./shapes.ts's generic assignment (a bare token after a name, a flag or a field), run over the whole text
export const ASSIGNED = /(?<![\w.-])(?:--[\w-]{1,40}(?:=|\s{1,4})|(?=([\w.-]{1,60}))\1\\?["']?\s{0,4}(?:=|:(?=\s|\\?["']))\s{0,4})\\?["']?([\w+~-]{20,120}={0,2})(?![\w+=~./-])/g;

// ./index.ts's escape decoding before issue 29's per-match work (round 8): a pattern's call per escape and per run,
// each region's context sliced and joined to its decoded part. test/redact-checks.test.ts asserts the rewrite redacts the same.
/** A JSON `\u` or URL `%` escape of a printable ASCII character. */
const ESCAPE_NEAR = /\\u00[2-7]|%[2-7]/;
/** Which char codes an escape is decoded to: the characters of tokens, names and URLs, never a quote or a space. */
const DECODES = runOf("+/=.~:@&?-");
/** The char code an escape of a token character (`\u0042`, `%41`) at `i` decodes to, or -1 (a token does not end at one). */
/** Round 8's rule, in the former code too: a backslash after an odd run of backslashes starts no escape. */
function escapedBackslash(text: string, i: number): boolean {
  let n = 0;
  while (text.charCodeAt(i - 1 - n) === 92) n++;
  return n % 2 === 1;
}
function escapedAt(text: string, i: number): number {
  const len = text.charCodeAt(i) === 37 ? 3 : text.startsWith("\\u00", i) && !escapedBackslash(text, i) ? 6 : 0;
  const high = len && text.charCodeAt(i + len - 2) - 48;
  const hex = text.charCodeAt(i + len - 1) | 32; // the last digit, in lower case
  const low = hex >= 48 && hex <= 57 ? hex - 48 : hex >= 97 && hex <= 102 ? hex - 87 : -1;
  return high >= 2 && high <= 7 && low >= 0 && DECODES[high * 16 + low] ? high * 16 + low : -1;
}

/**
 * `text` from `start` to `stop`, every escape of a token character decoded; `marks` gets, for each,
 * its index in the result and its length in `text` (to map the result back). Slices between escapes,
 * no buffer a region: escape-dense text has a region a line, and allocation was most of its cost.
 */
function decode(text: string, start: number, stop: number): [plain: string, marks: number[]] {
  let plain = "";
  const marks: number[] = [];
  let seg = start; // text from `seg` is not in `plain` yet
  for (let i = start; i < stop; i++) {
    const c = text.charCodeAt(i);
    if (c !== 37 && c !== 92) continue;
    const len = c === 37 ? 3 : 6;
    const code = i + len > stop ? -1 : escapedAt(text, i);
    if (code < 0) continue;
    plain += text.slice(seg, i);
    marks.push(plain.length, len);
    plain += String.fromCharCode(code);
    i += len - 1;
    seg = i + 1;
  }
  return [plain + text.slice(seg, stop), marks];
}

/**
 * Secrets written with escapes (a token with one `\u0042` in JSON arguments, a URL-encoded query in a
 * redirect). Each run of token characters around an escape has a window: the run, what follows it on
 * its line (64 characters and the token they end in) and 48 characters before it. Windows that overlap
 * are one region, decoded once and redacted once (escape-dense text is one region, not a window per
 * escape); where that finds a secret, the stretch from the first change to the last stands in decoded
 * and masked, and the rest keeps its escapes. Each character is in one region: linear.
 */
export const encodedBefore = (shapes: Shape[], least = Math.min(8, ...shapes.map((s) => s.min ?? 8))) => (text: string): string => {
  if (!ESCAPE_NEAR.test(text)) return text;
  // Regions first: raw context from `from`, decoded from `start` to `stop` (the loop both former versions ran)
  const regions = regionsReference(text);
  // Each region decoded; then only the shapes whose prefilter holds somewhere in them are read, region
  // by region (escape-dense text has a region a line: the catalogue is asked once, not once a line)
  const windows: [window: string, before: number, marks: number[]][] = [];
  for (let r = 0; r < regions.length; r += 3) {
    const before = text.slice(regions[r], regions[r + 1]);
    const [plain, marks] = decode(text, regions[r + 1], regions[r + 2]);
    const window = before + plain;
    windows.push([marks.length && window.length >= least ? window : "", before.length, marks]); // shorter than any match: nothing to find
  }
  const all = windows.map((w) => w[0]).join("\n\0\n");
  const live = shapes.filter((shape) => (!shape.needs || shape.needs.test(all)) && (!shape.gate || shape.gate(all)));
  let out = "";
  let at = 0; // text before `at` is written
  for (let w = 0; w < windows.length; w++) {
    const [window, before, marks] = windows[w];
    let clean = window;
    for (const shape of live) clean = apply(clean, shape);
    if (clean === window) continue;
    // the stretch that changed, and where its ends stand in the text
    const from = regions[w * 3];
    let head = 0;
    while (head < window.length && clean.charCodeAt(head) === window.charCodeAt(head)) head++;
    let tail = 0;
    while (tail < clean.length - head && tail < window.length - head && clean.charCodeAt(clean.length - 1 - tail) === window.charCodeAt(window.length - 1 - tail)) tail++;
    const inText = (i: number) => {
      let t = from + i;
      for (let k = 0; k < marks.length && marks[k] + before < i; k += 2) t += marks[k + 1] - 1;
      return t;
    };
    out += text.slice(at, inText(head)) + clean.slice(head, clean.length - tail);
    at = inText(window.length - tail);
  }
  return out + text.slice(at);
};

// ./shapes.ts's `identifier` before round 8 (split, then each segment tested whole)
const SEGMENT = /^(?:[A-Z]?[a-z]+|[A-Z]+|\d+|(?:[A-Z][a-z]+)+\d*|[a-z]+\d+|[\da-f]+)$/;
export function identifier(value: string): boolean {
  const segments = value.split(/[_-]/);
  return segments.length >= 4 && segments.every((s) => s === "" || SEGMENT.test(s)) && segments.filter((s) => /^[A-Za-z]{3,}$/.test(s)).length >= 2;
}

// ./shapes.ts's `TOKEN` before round 11 (a pattern of its own, compiled apart from the sticky one `token` reads)
export const formerToken = (value: string) => new RegExp(`^(?:${VENDOR})`).test(value);

// ./shapes.ts's `codesOf` before round 11 (a branch per byte past ASCII), on a buffer of its own: the
// char codes as bytes, each past ASCII 128, then a 0
export function formerCodes(text: string): number[] {
  const codes = new Uint8Array(text.length * 4 + 1);
  const { written } = new TextEncoder().encodeInto(text, codes);
  let n = written;
  if (written > text.length) {
    n = 0;
    for (let i = 0; i < written; i++) {
      const b = codes[i];
      if (b < 128) codes[n++] = b;
      else if (b >= 192) n += b >= 240 ? ((codes[n] = codes[n + 1] = 128), 2) : ((codes[n] = 128), 1);
    }
  }
  codes[n] = 0;
  return [...codes.subarray(0, n + 1)];
}
