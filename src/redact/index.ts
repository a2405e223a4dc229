// redact: secrets never cross a compaction boundary. Shapes, not known strings; linear-time patterns.
import { KUBERNETES_DATA, NOT_SECRET, PARTS, SHAPES, STAND_IN, type Shape, compileChecks, compiled, csrfNamed, looksRandom, mixedRun, namesNext, runOf, token, valueAt } from "./shapes.js";
import { triggersOf, wordsOf } from "./triggers.js";

export const REDACTED = "[REDACTED]";
const KEY_BLOCK = "[REDACTED PRIVATE KEY]";
/**
 * A secret's marker. Only a token in a vendor's format keeps its documented prefix (./more.ts lists
 * them: until it loads, none is kept), and only before a
 * body of 16 characters or more; nothing else keeps a character, however long the value: any of a
 * random body, an assigned value or a password is information.
 */
export function mask(value: string): string {
  const prefix = value.length >= 18 ? PARTS.hooks.prefix?.exec(value)?.[0] : undefined;
  return prefix && value.length - prefix.length >= 16 && (token(value) || mixedRun(value.slice(prefix.length), 16)) ? `${prefix}…${REDACTED}` : REDACTED;
}

const BEGIN = /-----BEGIN[A-Z\d ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
const END = /-----END[A-Z\d ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
/** A line break, real or escaped in JSON, and the indentation of a YAML block. */
const BREAK = String.raw`(?:\r?\n|\\r\\n|\\n)[ \t]{0,16}`;
/** A cut-off block's body: whole lines of base64, then a partial one that is long enough to be key material. */
const KEY_BODY = new RegExp(String.raw`(?:${BREAK}[A-Za-z\d+/=]{1,100}(?=\r?\n|\\[rn]|$))*(?:${BREAK}[A-Za-z\d+/=]{16}[A-Za-z\d+/=]*(?![\w-]))?`, "y");
/** A body line: indentation, then 16 to 100 base64 characters. */
const BODY_LINE = /^[ \t]{0,16}[A-Za-z\d+/=]{16,100}$/;

/** Where the line ending just before `i` starts, by the line break before it (real or escaped). */
function lineBefore(text: string, i: number, floor: number): [start: number, end: number] | undefined {
  const end = text[i - 1] === "\n" ? i - (text[i - 2] === "\r" ? 2 : 1) : text.startsWith("\\n", i - 2) ? i - (text.startsWith("\\r", i - 4) ? 4 : 2) : -1;
  if (end < floor) return undefined;
  const window = text.slice(Math.max(floor, end - 120), end); // a body line is never longer
  const start = Math.max(window.lastIndexOf("\n") + 1, window.lastIndexOf("\\n") + 2, 0) + Math.max(floor, end - 120);
  return [start, end];
}

/**
 * Key material before an END whose BEGIN was cut away (the output's head was dropped): the base64
 * lines right before it, walked back line by line, become the marker with the END.
 */
function redactOrphanBodies(text: string): string {
  let out = "";
  let at = 0;
  END.lastIndex = 0;
  for (let m = END.exec(text); m; m = END.exec(text)) {
    let start = m.index;
    for (let line = lineBefore(text, start, at); line && BODY_LINE.test(text.slice(...line)); line = lineBefore(text, start, at)) start = line[0];
    if (start === m.index) continue;
    out += text.slice(at, start) + KEY_BLOCK;
    at = END.lastIndex;
  }
  return out + text.slice(at);
}

/**
 * Private key blocks become one marker. A scan with two cursors, never a backtracking pattern: each
 * BEGIN runs to the next END, or, when the block was cut off (no END before the next BEGIN), to the
 * end of its base64 body.
 */
function redactKeyBlocks(text: string): string {
  if (!text.includes("PRIVATE KEY")) return text;
  let out = "";
  let at = 0;
  let end: RegExpExecArray | null = null;
  let ends = true; // once no END follows, none follows a later BEGIN either: never search twice
  BEGIN.lastIndex = 0;
  for (let begin = BEGIN.exec(text); begin; begin = BEGIN.exec(text)) {
    // an END still ahead serves every BEGIN before it: each END is found once
    if (ends && (!end || end.index < BEGIN.lastIndex)) {
      END.lastIndex = BEGIN.lastIndex;
      end = END.exec(text);
      ends = end !== null;
    }
    const next = text.indexOf("-----BEGIN", BEGIN.lastIndex);
    let stop: number;
    if (end && (next < 0 || next > end.index)) stop = end.index + end[0].length;
    else {
      KEY_BODY.lastIndex = BEGIN.lastIndex;
      KEY_BODY.exec(text);
      stop = KEY_BODY.lastIndex;
    }
    out += text.slice(at, begin.index) + KEY_BLOCK;
    at = stop;
    BEGIN.lastIndex = stop;
  }
  out += text.slice(at);
  return out.includes("-----END") ? redactOrphanBodies(out) : out;
}

const CSRF_ANY = /[cx]srf/i;
/**
 * Documentation's example values: AWS's `…EXAMPLE` keys, a body of x after a prefix (`sk_live_xxxx…`,
 * Slack's `…/XXXX` webhooks). The pattern only where the value ends so: one anchored at the end is tried at every start, for every match.
 */
export const example = (value: string) => {
  const last = value.charCodeAt(value.length - 1); // (by its last letter: a check of every candidate value)
  return last === 69 ? value.endsWith("EXAMPLE") : (last | 32) === 120 && (value.endsWith("xxxx") || value.endsWith("XXXX")) && /[_/-](?:x{4,}|X{4,})$/.test(value);
};
const alnumCode = (c: number) => (c >= 48 && c <= 57) || ((c | 32) >= 97 && (c | 32) <= 122);
/**
 * By table, as RUNS below: a token's characters (a "." only between two: see `joined`); what touches a
 * marker when it is part of the token the marker hid; a vendor prefix's (`sk_live_`, `xoxb-`, `dp.st.`).
 */
const TOKEN_CHARS = runOf("+/-");
const TOUCHES = runOf("+/-.");
const PREFIX_CHARS = runOf("-.");
/** Whether the character at `i` goes on a token's run: a token's character, or a "." before one. */
const joined = (text: string, i: number) => TOKEN_CHARS[text.charCodeAt(i)] === 1 || (text.charCodeAt(i) === 46 && TOKEN_CHARS[text.charCodeAt(i + 1)] === 1);

/**
 * Where a token found at the start of a longer run of base64 ends: the run is the secret
 * (`ghp_…+rest`), read on after a `+` and a letter or digit. Only over a `+`: after a `.`, `_`, `-`
 * or `/` a name may follow that a later rule needs (`ghp_….Password: …`, `AKIA….secret_key=…`), a
 * URL's path (`bot<token>/getMe`), or, at a seam of two messages, the next one's first word
 * (`-rw-r--r--`, `.env`, `/home/…`); an escaped letter or digit is one (`pastEscapes`). A run before the token is the value's rule's to mask
 * (`throughMarkers`): the token's own rule cannot tell a key's start from a word.
 */
export function runEnd(text: string, end: number): number {
  if (text.charCodeAt(end) === 43 && (alnumCode(text.charCodeAt(end + 1)) || alnumCode(escapedAt(text, end + 1)))) while (BASE64_CODE(text.charCodeAt(end))) end++;
  return end;
}
const BASE64_CODE = (c: number) => alnumCode(c) || c === 43 || c === 47;

/**
 * Where a masked token ends that its rule, or the run after it, stopped at an escape of a token's
 * character (`…+7t%78NKO…`, `…[REDACTED]/sk-4B%46lL…`): it goes on through it, as the decoded text
 * reads, else the rest would stand decoded without what named it.
 */
export function pastEscapes(text: string, end: number): number {
  while (TOKEN_CHARS[escapedAt(text, end)] === 1) for (end += text[end] === "%" ? 3 : 6; TOKEN_CHARS[text.charCodeAt(end)] === 1; ) end++;
  return end;
}

/** Our own markers, exactly: anyone else's `[REDACTED` (`[REDACTED by policy]`, one cut short) is text. */
const MARKER = String.raw`\[REDACTED(?: PRIVATE KEY)?\]`;
const MARKERS = new RegExp(MARKER, "g");
const MARKER_AT = new RegExp(MARKER, "y");
/** Where the marker at `i` ends, or -1. */
const markerAt = (text: string, i: number) => (text.charCodeAt(i) === 91 && ((MARKER_AT.lastIndex = i), MARKER_AT.test(text)) ? MARKER_AT.lastIndex : -1);
/** How far past its match a value is read on through markers at most: within the rules' reach (./window.ts), and linear. */
const THROUGH_REACH = 128;

/**
 * A value that holds or is cut at markers (its rule stopped at the "["), read on through them and the
 * run of a token's characters they touch: where that ends when a rule before masked only part of the
 * value, letters or digits of it touching a marker, or the vendor's kept prefix and "…" before it,
 * through none or more of `+/_.-` (`"abc+[REDACTED]"`, `abc/ghp_…[REDACTED]`, `ghp_…[REDACTED]+rest`:
 * not `KEY=[REDACTED]` or `user:[REDACTED]`); -1 when none does, or the run goes on past the reach.
 */
export function throughMarkers(text: string, start: number, end: number): number {
  for (const stop = end + THROUGH_REACH; ; ) {
    const next = markerAt(text, end);
    if (next > 0) end = next;
    else if (joined(text, end) || (text.charCodeAt(end) === 0x2026 && markerAt(text, end + 1) > 0)) end++;
    else break;
    if (end > stop) return -1;
  }
  const value = text.slice(start, end);
  let left = 0; // the value before `left` is read
  for (const m of value.matchAll(MARKERS)) {
    let from = m.index;
    if (value.charCodeAt(from - 1) === 0x2026) {
      // the kept prefix: the longest that ends at the "…" (`abc.sk_live_…`: `sk_live_`)
      let k = from - 1;
      while (k > left && PREFIX_CHARS[value.charCodeAt(k - 1)] === 1) k--;
      for (const prefix = PARTS.hooks.prefix; k < from - 1; k++) if (!prefix || prefix.exec(value.slice(k, from - 1))?.[0].length === from - 1 - k) break;
      if (k < from - 1) from = k;
    }
    left = m.index + m[0].length;
    // a letter or digit before it, through `+/_.-` (read back by hand: a pattern anchored at the end is
    // tried at every start, and a long value holds a marker every few characters: quadratic)
    let touch = from;
    while (touch > 0 && "+/_.-".includes(value[touch - 1])) touch--;
    touch = alnumCode(value.charCodeAt(touch - 1)) ? touch - 1 : -1;
    // (a JSON escape's letter, `\n` or `\t`, is a break between words, no token's)
    if ((touch >= 0 && !(escaped(text, start + touch) && "nrtbf".includes(value[touch]))) || /^[+/_.-]*[A-Za-z\d]/.test(value.slice(left))) return end;
  }
  return -1;
}

/** `value` with a token where each marker and its kept prefix is, for the checks to read: random, as what it hid. */
const PREFIXED = new RegExp(String.raw`(?:[\w.-]{1,24}…)?` + MARKER, "g");
export const standIn = (value: string) => value.replace(PREFIXED, STAND_IN);

/**
 * Where the marker of `value`, found at `start` in `text`, starts, and the marker. A token right after
 * a JSON escape's backslash (`\nghp_…`: patterns read the n as a word character) keeps the escape's
 * letter, which is no part of it; any other escaped character (`\u0041…`) is the token's own, masked
 * with its backslash. Either way the JSON stays valid.
 */
export function maskAt(text: string, start: number, value: string): [from: number, marker: string] {
  const after = escaped(text, start);
  const letter = after && /[nrtbf]/.test(value[0]) ? 1 : 0;
  return [after && !letter ? start - 1 : start + letter, mask(value.slice(letter))];
}

/** Whether the character at `i` is escaped: an odd run of backslashes stands before it. */
function escaped(text: string, i: number): boolean {
  let k = i;
  while (text.charCodeAt(k - 1) === 92) k--;
  return (i - k) % 2 === 1;
}

const exec = (pattern: RegExp, text: string) => pattern.exec(text);

/**
 * Whether `shape`'s checks take `value`, of its match `m` in `text` (`csrf`: the text names CSRF at all).
 * A function of the module's, not a closure of each `apply` call's: apply runs once a shape and a text.
 */
function passes(shape: Shape, pattern: RegExp, text: string, value: string, m: RegExpExecArray, group: number, csrf: boolean): boolean {
  if (NOT_SECRET.test(value) || example(value)) return false; // an id, or documentation's example
  if (group && shape.random?.includes(group) && !looksRandom(value)) return false;
  const at = m.index;
  // (a value a name or context finds; the generic token run checks it itself, and a vendor's own format is a token wherever it stands)
  if (csrf && group && csrfNamed(text.slice(Math.max(0, at - 40), at), m[0], value)) return false;
  const next = pattern.lastIndex; // a check may redact what it decodes (./more.ts), with these very patterns
  const valid = !shape.valid || shape.valid(value, text.slice(Math.max(0, at - 64), at), text[at + m[0].length] ?? "", m[0], group);
  pattern.lastIndex = next;
  // (last: only a value all else masks) a credential's name where a token stands, before its value (`Bearer DB_PASSWORD='…'`);
  // a shape whose values may be names reads them as such itself (`labels`: the next name where a value stands)
  return valid && !(!shape.labels && m[0].endsWith(value) && namesNext(value, text, at + m[0].length));
}

/**
 * `text` with every match of `shape` that passes its checks masked. `needed`: the shape's prefilter is
 * known to hold (for a window of a longer text). `seen.joined` is set where a kept prefix was written
 * where a backslash was dropped: joined to what was before it, it may make a word no text held
 * (`p\whsec_…` → `pwhsec_…`). An exec loop, not `replace` with a callback: V8 calls a replacer from
 * C++ at several times the cost of a match, and adversarial text matches every few characters.
 */
export function apply(text: string, shape: Shape, needed = false, seen?: Seen): string {
  if ((shape.gate && !shape.gate(text)) || (!needed && shape.needs && !compiled(shape.needs).test(text))) return text;
  const pattern = compiled(shape.lite && !compiled(shape.lite[0]).test(text) ? shape.lite[1] : shape.pattern);
  const cuts: (number | string)[] = []; // each mask's start, marker and end: the output is built at the end
  let done = 0; // where the last mask ends
  let csrf: boolean | undefined; // whether the text names CSRF at all: asked once, at the first match
  const read = seen?.within && seen.notes; // (a window's values read in their markers' places)
  let q = 0; // the next of them
  const find = shape.find ?? exec;
  let ahead: RegExpExecArray | undefined; // the next match, where `namesAhead` found it
  let nextGroup = 0; // its group
  let nextValue = 0; // where its value stands in it
  let reread = 0; // where the last value read again ends
  // (the match read on to from inside a value, where `namesAhead` found it from there already: the pattern, the
  // text and where it looks from the same, it is the match `find` gives; null: none)
  let again: RegExpExecArray | null | undefined;
  pattern.lastIndex = 0;
  for (let m = find(pattern, text); m; m = ahead ?? (again === undefined ? find(pattern, text) : ((pattern.lastIndex = again ? again.index + again[0].length : 0), again))) {
    const named = m === ahead; // (its group and its value's place `namesAhead` has read)
    ahead = again = undefined;
    const match = m[0];
    const at = m.index;
    let group = named ? nextGroup : 0;
    if (!named) for (const g of shape.group ?? []) if (m[g] !== undefined) { group = g; break; }
    let value = group ? m[group] : match;
    // a backslash at its end escapes what follows (`\"` closing a JSON string): never the value's
    while (value.length > 1 && value.charCodeAt(value.length - 1) === 92) value = value.slice(0, -1);
    const start = at + (group && (named && value === m[group] ? nextValue : valueAt(match, value))); // (the value ends the match, mostly)
    if (start < done) continue; // inside what a mask read on through (the rule's next match, after it, is still found)
    let end = start + value.length;
    let whole: string | undefined; // a value parted from the name after it, as the pattern read it
    let known: RegExpExecArray | null | undefined; // the pattern's match from `start`, where `namesAhead` read it
    if (shape.labels?.includes(group) && ((ahead = namesAhead(shape, pattern, text, start, end)), (known = readFrom), ahead)) {
      // the name's own match is next; a value before it, parted from it or glued to it, is judged alone
      (nextGroup = aheadGroup), (nextValue = aheadValue); // (before a check may redact, and call it, again)
      if ((end = parted) === start) continue; // (none: the name stands where its value would)
      [whole, value] = [value, text.slice(start, end)];
    }
    if (read) {
      // a value inside one is masked as the text has it, whatever the checks say: not judged again
      while ((read[q + 1] as number) <= start) q += 3;
      if ((read[q] as number) <= start && end <= (read[q + 1] as number)) continue;
    }
    const marked = value.includes("…") || (value.length > 8 && value.includes("REDACTED]"));
    // (a marker alone, with nothing of a token beside it: masked already, the common case, read at once)
    if (value === REDACTED && TOUCHES[text.charCodeAt(start - 1)] !== 1 && TOUCHES[text.charCodeAt(end)] !== 1 && text.charCodeAt(end) !== 91 && text.charCodeAt(end) !== 0x2026) continue;
    if (marked || markerAt(text, end) > 0) {
      // a rule before masked part of the value: the rest is masked with it, if the checks, reading a
      // token where each marker is, judge the whole a secret; if not, the value alone is judged, as before
      const through = throughMarkers(text, start, end);
      if (through >= 0 && passes(shape, pattern, text, standIn(text.slice(start, through)), m, group, (csrf ??= CSRF_ANY.test(text)))) {
        const from = text.charCodeAt(start - 1) === 92 ? maskAt(text, start, value)[0] : start;
        cuts.push(Math.max(done, from), REDACTED, (done = pastEscapes(text, through)));
        continue;
      }
      if (marked) continue; // masked already
    }
    if (!passes(shape, pattern, text, value, m, group, (csrf ??= CSRF_ANY.test(text)))) {
      // turned down alone: judged whole, with the name after it, as the pattern read it (the name's own match still next)
      if (whole === undefined || !passes(shape, pattern, text, whole, m, group, csrf)) {
        // read on from inside it where it holds a word of the shape's names: once a stretch (each turned-down
        // value read again at most once, `key=0key=0…` a value of 400 every 5 characters)
        if (whole === undefined && start >= reread && readsOn(shape, group, value)) (pattern.lastIndex = start), (reread = end), find === exec && (again = known);
        continue;
      }
      [value, end] = [whole, start + whole.length];
    }
    if (escapedAt(text, end) >= 0) continue; // the token runs on past an escape: read whole, decoded (redactEncoded)
    if (end !== (end = pastEscapes(text, runEnd(text, end)))) value = text.slice(start, end);
    const [from, marker] = text.charCodeAt(start - 1) === 92 ? maskAt(text, start, value) : [start, mask(value)];
    if (from < start && marker !== REDACTED && seen) seen.joined = true;
    cuts.push(Math.max(done, from), marker, (done = end));
    // a flag masked as a name's value, or at the end of one after an operator, names a value of its own after it
    // (`password=--token <key>`, `--password <value>=--token <key>`): read on from its dashes, where its name holds a
    // word of the rule's and a value follows it on the line, once a stretch
    const flag = ahead || start < reread ? -1 : flagIn(value);
    if (flag >= 0 && ((VALUE_AFTER.lastIndex = end), VALUE_AFTER.test(text)) && readsOn(shape, group, value.slice(flag))) (pattern.lastIndex = start + flag), (reread = end);
  }
  if (!done) return text;
  // (where a mask took part of a value and not the whole, none is read: as before values were noted)
  if (seen?.notes && !follow(text, cuts, seen.notes)) {
    seen.notes.length = 0; // (the caller's list too: its escape pass reads none)
    seen.notes = undefined;
  }
  let out = "";
  for (let i = 0, at = 0; i < cuts.length; at = cuts[i + 2] as number, i += 3) out += text.slice(at, cuts[i] as number) + cuts[i + 1];
  return out + text.slice(done);
}

/**
 * Each masked value's marker where the escape pass reads it (its start, its end, the value), in order:
 * a value may name the escaped run after it (`pwd=Bearer eyJm%43…`, `client_secret=sshpass -p …`),
 * which the escape pass, reading after the shapes, would find with no name before it.
 */
type Notes = (number | string)[];
/** Whether the shape reads on from inside a value of `group` (`reread`): where `piece` of it holds a word of its names. */
const readsOn = (shape: Shape, group: number, piece: string) => !!shape.reread?.includes(group) && shape.needs!.test(piece);
/** Where the last flag of a value starts: after its last `=-` or `:-`, or at its start; -1 where none does. */
const flagIn = (value: string) => (value.includes("-") ? Math.max(value.lastIndexOf("=-"), value.lastIndexOf(":-")) + 1 || (value.charCodeAt(0) === 45 ? 0 : -1) : -1);
/** A flag's value after it, as the secret-name rule reads one after a bare space (sticky: read at a masked flag's end). */
const VALUE_AFTER = /[ \t]{1,4}["'`]?[^\s"'`,;&()<>{}[\]\\=:-]/y;
/** What `apply` tells its caller (`joined`), and the notes it moves past its masks. */
interface Seen {
  joined: boolean;
  notes?: Notes;
  within?: boolean;
}

/**
 * `notes` moved past `cuts`, `apply`'s masks of `text`, and each value masked whole noted (one that
 * swallowed a noted value holds its marker); false where a mask took part of a noted value.
 */
function follow(text: string, cuts: (number | string)[], notes: Notes): boolean {
  const old = notes.splice(0);
  for (let i = 0, j = 0, shift = 0; ; i += 3) {
    const from = i < cuts.length ? (cuts[i] as number) : Infinity;
    const marker = cuts[i + 1] as string;
    const end = cuts[i + 2] as number;
    for (; (old[j + 1] as number) <= from; j += 3) notes.push((old[j] as number) + shift, (old[j + 1] as number) + shift, old[j + 2]);
    if (!marker) return true;
    for (; (old[j] as number) < end; j += 3) if ((old[j] as number) < from || (old[j + 1] as number) > end) return false;
    if (marker === REDACTED) notes.push(from + shift, from + shift + marker.length, text.slice(from, end));
    shift += marker.length - end + from;
  }
}

/** An operator that ends a value (`token:`), or that follows it after spaces (`api_key = `), read from the value's last character (sticky: no copy a match). */
const OPERATOR_AT_END = /[:=>]|.\s{1,4}(?:[:?+!]{0,3}=|=>|:)/y;

/**
 * Whether what stands before a secret's name at `at`, from `start`, makes one longer name with it:
 * nothing, or a word or two joined to it (`x-`, `GITHUB_`, `--softlayer-`, `auth` of `authToken`, a
 * constant's `SUMOLOGIC_ACCESS` of `…ACCESSKEY`), not a word it is inside (`supersecret`), a path or
 * a URL, nor a random run (a value with a name glued to its end: `partedAt` reads those).
 */
const joins = (text: string, start: number, at: number) => {
  if (start >= at) return true;
  // (a dash or a letter first, as the pattern reads it, by char code: adversarial values start with anything)
  const first = text.charCodeAt(start) | 32;
  if (first !== 45 && !(first >= 97 && first <= 122)) return false;
  const prefix = text.slice(start, at);
  return /^-{0,2}[A-Za-z][\w.-]{0,23}$/.test(prefix) && /[_.-].?$|[a-z][A-Z]$|^[A-Z][A-Z\d_.-]*[A-Z]$/.test(prefix + text[at]) && !looksRandom(prefix);
};

/**
 * What joins a name's words (`_-.`), and characters a value may hold that no name or word does,
 * between two fields of a line (`a=1|b=2`; not base64's `+`, which a token runs on through, `runEnd`,
 * nor a URL's `?` or a path's `/`: a URL or a path under a credential's name is its value whole).
 */
const PARTING = Uint8Array.from({ length: 128 }, (_, c) => +"_-.!#$%*:=@^|~".includes(String.fromCharCode(c))); // (by char code: read at every character of a value before a name)
/** A name's start before a name of the shape's own in a value (`db_`, `GITHUB_`, `x-`): words of letters, never a digit (`k3vT9_` is the value's). */
const NAME_START = /^-{0,2}[A-Za-z]+(?:[_.-][A-Za-z]+)*[_.-]?$/;
/**
 * Where a value ends that stands before a name of the shape's own (`namesAhead` found it at `at`), in
 * one run with it: parted by separators (`<key>|api_key: …`, `<key>:db_password = …`: fields of one
 * line) or glued to it (`<key>.api_key: …`, `<key>_dbPassword: …`, `<key>api_key: …`), the name read
 * with what joins it to a longer one (`db_`, longest first, as `joins` reads it); `start` where what
 * stands before the name is that name's own start (`password: cloudflare_token: <key>`: the name stands
 * where the value would), -1 where neither (no value of 4 characters). Taken into the value with the
 * name, it left the name's own value with no name before it. `apply` judges the part alone, and whole,
 * as before, where the checks turn it down alone.
 */
export function partedAt(text: string, start: number, at: number): number {
  if (joins(text, start, at)) return start;
  // the name's prefix starts at a word after a `_`, `-`, `.` or separator, or at the name: the longest that joins it first
  let k = at;
  while (k > start && k > at - 26 && PREFIX_CHARS[text.charCodeAt(k - 1)] === 1) k--;
  let end = -1; // where the value before a candidate ends, past the separators before it
  for (let from = -1; k <= at; k++) {
    if (k < at && PARTING[text.charCodeAt(k - 1)] !== 1) continue;
    // (read back to the last candidate at most: separators all the way there, its end is this one's)
    let e = k;
    while (e > start && e > from && PARTING[text.charCodeAt(e - 1)] === 1) e--;
    if (e !== from) end = e;
    from = k;
    // (4: a value's least, as the patterns read one)
    if (end >= start + 4 && (k === at || NAME_START.test(text.slice(k, at))) && joins(text, k, at)) return end;
  }
  return -1;
}

/**
 * Where a name of the shape's own starts in the value from `start` to `end`, when the value is one
 * whose own value follows it (`password: token: <key>`, `password: api_key = <key>`): a match of the
 * shape that starts in the value at a word's start (camelCase starts one), or after a value of its
 * own that separators part from it or that is glued to it (`partedAt`, where that value ends kept in
 * `parted`), by an operator (not after a bare space, the secret-name shape's group 4: `--password
 * secret and`), with its value after it: that match, the pattern's next (its `lastIndex` past it);
 * else undefined, the pattern where it was (past `end`). Masked as the first name's value (or turned
 * down as a name), the second name's own value was left with no name before it.
 */
export function namesAhead(shape: Shape, pattern: RegExp, text: string, start: number, end: number): RegExpExecArray | undefined {
  const resume = pattern.lastIndex;
  readFrom = undefined;
  const op = text.charCodeAt(end - 1); // (the pattern's first alternative by char code: a value that ends in its operator, the common case)
  if (op !== 58 && op !== 61 && op !== 62 && ((OPERATOR_AT_END.lastIndex = end - 1), !OPERATOR_AT_END.test(text))) return;
  pattern.lastIndex = start;
  const m = (readFrom = pattern.exec(text));
  const at = m?.index ?? end;
  const group = m && shape.group!.find((g) => m[g] !== undefined)!;
  if (at < end && group !== 4 && at + (aheadValue = valueAt(m![0], m![group!])) >= end && (parted = partedAt(text, start, at)) >= 0) return (aheadGroup = group!), m!;
  pattern.lastIndex = resume;
}
// Of the match `namesAhead` found last, read at once by its caller: where the value before its name ends
// (`partedAt`; its `start`: none, the name stands where its value would), its group, and where its value stands in it
let parted = -1;
let aheadGroup = 0;
let aheadValue = 0;
/** The pattern's match from the value's start that `namesAhead` read last (null: none), undefined where it read none. */
let readFrom: RegExpExecArray | null | undefined;

/**
 * What is redacted before the shapes: key blocks, and Kubernetes data only where a Secret
 * is (`manifest`: known to be one, when the text is a window of a longer one). The Secret is looked
 * for before the key blocks are masked: a block's marker that swallowed the `kind` line must not
 * unmask the data a stream, reading the lines before the block, has already shown masked.
 */
function redactBlocks(text: string, manifest?: boolean, kind = true): string {
  // (`kind`: the text may name a Secret's kind; a key block's marker names none)
  const blocked = redactKeyBlocks(text);
  return manifest || kind ? apply(blocked, KUBERNETES_DATA, manifest || KUBERNETES_DATA.needs!.test(text)) : blocked;
}

/**
 * Every shape of `shapes` applied in turn; `about`: the text is a window of a longer one known to hold
 * the context a `context` shape needs. A shape whose prefilter's words the text lacks (./triggers.ts)
 * cannot match and is not read. A mask changes the text: what it leaves is the text's own pieces and
 * markers, and no word is a marker's or crosses one's `[`, `]` or `…`, so words only go, and a
 * prefilter known to hold is read again (a word it held may be gone); where a mask may join a word
 * (`seen.joined`, or a catalogue with a word of "redacted"), the text is scanned again.
 */
const shapesOf = (shapes: Shape[]) => {
  let triggers: ReturnType<typeof triggersOf> | undefined; // built at the first use: a catalogue completed before it is never read
  let joins = false;
  // the shapes' prefilters, then a Secret's kind and the escapes (`redact` reads whether a text may hold them)
  const scan = (text: string, last?: Int32Array) => (triggers ??= (compileChecks(), (joins = shapes.some((s) => wordsOf(s.needs)?.some((w) => "redacted".includes(w)))), triggersOf([...shapes.map((s) => s.needs), KUBERNETES_DATA.needs, ESCAPE_NEAR])))(text, last);
  return [scan, (text: string, about?: boolean, hit = scan(text), notes?: Notes): string => {
    // this call's own: a check may redact (./more.ts) in a call of its own; values noted where the escape pass reads after it
    const seen: Seen = { joined: false, notes: hit[shapes.length + 1] ? notes : undefined };
    for (let k = 0; k < shapes.length; k++) {
      const needed = about && shapes[k].context;
      if (!(needed || hit[k])) continue;
      seen.joined = joins;
      const out = apply(text, shapes[k], needed || hit[k] > 1, seen); // (2: the prefilter holds; a gate is read still)
      if (out === text) continue;
      if (seen.joined) hit = scan(out);
      else for (let j = k + 1; j < hit.length; j++) hit[j] &&= 1;
      text = out;
    }
    return text;
  }] as const;
};

/** A JSON `\u` or URL `%` escape of a printable ASCII character (`%[2-7]` spelled out: words to the scan). */
const ESCAPE_NEAR = /\\u00[2-7]|%2|%3|%4|%5|%6|%7/;
const ESCAPE = /\\u00[2-7][\dA-Fa-f]|%[2-7][\dA-Fa-f]/g;
/** The rest of a run of characters around an escape, from where it is (RUNS). */
const RUN_ON = /[\w+/=.~:@&?%\\-]*/y;
/** Whether a char code is a run's, by table: read for every character back from an escape. */
const RUNS = runOf("+/=.~:@&?%\\-");
const runCode = (c: number) => c < 128 && RUNS[c] === 1;
/** Which char codes an escape is decoded to: the characters of tokens, names and URLs, never a quote or a space. */
const DECODES = runOf("+/=.~:@&?-");
/** The char code an escape of a token character (`\u0042`, `%41`) at `i` decodes to, or -1 (a token does not end at one). */
function escapedAt(text: string, i: number): number {
  const len = text.charCodeAt(i) === 37 ? 3 : text.startsWith("\\u00", i) && !escaped(text, i) ? 6 : 0; // (`\\\\u0041` in JSON: a backslash, then "u0041")
  const high = len && text.charCodeAt(i + len - 2) - 48;
  const hex = text.charCodeAt(i + len - 1) | 32; // the last digit, in lower case
  const low = hex >= 48 && hex <= 57 ? hex - 48 : hex >= 97 && hex <= 102 ? hex - 87 : -1;
  return high >= 2 && high <= 7 && low >= 0 && DECODES[high * 16 + low] ? high * 16 + low : -1;
}

/** The char code the escape at `i` of a region (decoded from `start`, to `stop`) decodes to, or -1: none there. */
function escapeIn(text: string, i: number, start: number, stop: number): number {
  const c = text.charCodeAt(i);
  return (c === 37 || c === 92) && i >= start && i + (c === 37 ? 3 : 6) <= stop ? escapedAt(text, i) : -1;
}

/**
 * The regions of `text` (`from`, `start`, `stop` each: raw context from `from`, every escape of a token
 * character from `start` on decoded) joined by "\n\0\n", each a window starting at `starts`; a region
 * without an escape decoded, or shorter than `least` decoded, is an empty one (nothing to find). Written
 * a char code at a time and made a string once: a string a window, its pieces, and where each escape
 * stood were most of escape-dense text's cost, and its windows are mostly never read. A value noted
 * (`notes`) is read, decoded, in its marker's place; `spans` gets where each stands in its window.
 */
function decodeAll(text: string, regions: number[], least: number, starts: number[], notes: Notes = [], spans: Notes[] = []): string {
  let size = text.length + regions.length; // (the separators, and the values read: no longer than they)
  for (let j = 2; j < notes.length; j += 3) size += (notes[j] as string).length;
  const codes = new Uint16Array(size);
  let n = 0;
  let j = 0; // the next note
  for (let r = 0; r < regions.length; r += 3) {
    if (r) (codes[n++] = 10), (codes[n++] = 0), (codes[n++] = 10);
    const at = n;
    let decoded = false;
    starts.push(at);
    while ((notes[j] as number) < regions[r]) j += 3;
    for (let i = regions[r], start = regions[r + 1], stop = regions[r + 2], next = notes[j]; i < stop; i++) {
      if (i === next) {
        const end = notes[j + 1] as number;
        const value = notes[j + 2] as string;
        next = notes[(j += 3)];
        // (a value names what follows it after a space: not a marker a token's characters or another marker
        // touch, which a rule reads on through, `throughMarkers`, where it may not through the value)
        if (end <= stop && TOUCHES[text.charCodeAt(i - 1)] !== 1 && text[i - 1] !== "]" && (text[end] === " " || text[end] === "\t")) {
          const read = (spans[starts.length - 1] ??= []);
          read.push(n - at);
          for (let k = 0; k < value.length; k++) {
            const code = escapeIn(value, k, 0, value.length);
            codes[n++] = code < 0 ? value.charCodeAt(k) : code;
            if (code >= 0) k += value.charCodeAt(k) === 37 ? 2 : 5;
          }
          read.push(n - at, "");
          i = end - 1;
          continue;
        }
      }
      const c = text.charCodeAt(i);
      const code = c === 37 || c === 92 ? escapeIn(text, i, start, stop) : -1; // (only a "%" or a backslash starts an escape: no call a character)
      codes[n++] = code < 0 ? c : code;
      if (code >= 0) (decoded = true), (i += c === 37 ? 2 : 5);
    }
    if (!decoded || n - at < least) n = at;
  }
  return stringOf(codes, n);
}

let utf16: TextDecoder | null | undefined; // (made at the first use: none where the platform stores UTF-16 big-endian or has no such decoder)
const utf16Decoder = (): TextDecoder | null => {
  try {
    return new Uint8Array(Uint16Array.of(1).buffer)[0] === 1 ? new TextDecoder("utf-16le", { fatal: true, ignoreBOM: true }) : null;
  } catch {
    return null; // (a runtime whose TextDecoder knows UTF-8 alone: fromCharCode)
  }
};
/**
 * The first `n` char codes of `codes` as a string: decoded as UTF-16 (at twice `fromCharCode`'s speed),
 * or, where they hold an unpaired surrogate (the decoder, fatal, throws), made by `fromCharCode` a piece at a time.
 */
function stringOf(codes: Uint16Array, n: number): string {
  utf16 ??= utf16Decoder();
  try {
    if (utf16) return utf16.decode(codes.subarray(0, n));
  } catch {
    // (an unpaired surrogate: made below)
  }
  const parts: string[] = [];
  for (let i = 0; i < n; i += 8192) parts.push(String.fromCharCode.apply(null, codes.subarray(i, Math.min(n, i + 8192)) as unknown as number[]));
  return parts.join("");
}

const globals = new WeakMap<RegExp, RegExp>();
/** `pattern` searching (`g`, not `y`: a prefilter is written without either), made once. */
const globalOf = (pattern: RegExp) => globals.get(pattern) ?? globals.set(pattern, new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, "") + "g")).get(pattern)!;

/**
 * The windows (starting at `starts` in `all`, their join) where `pattern` may find a match, in order:
 * from each window's start, the next match marks the window it starts in (in a separator, the one
 * before it). A match in a window is one in the whole (see below), so none is missed. `find`: the
 * shape's finder, which finds the match `exec` finds (a text where it has none is left at once).
 */
function windowsWith(pattern: RegExp, all: string, starts: number[], find = exec): number[] {
  const out: number[] = [];
  pattern.lastIndex = 0;
  for (let m = find(pattern, all), w = 0; m; m = find(pattern, all)) {
    while (w + 1 < starts.length && starts[w + 1] <= m.index) w++;
    out.push(w);
    if (++w >= starts.length) break;
    pattern.lastIndex = starts[w];
  }
  pattern.lastIndex = 0;
  return out;
}

/**
 * The escape windows' regions of `text`, each raw context from `from`, decoded from `start` to `stop`:
 * a run of token characters around an escape, 48 characters before it and the rest of its line after
 * it (64 characters, and the token running on past them), overlapping windows joined. Runs are scanned
 * once, and line breaks found once each (escapes every few characters reread no line).
 */
export function regionsOf(text: string): number[] {
  const regions: number[] = [];
  let ran = 0; // where the last run ended
  let before = -1; // the last line break before the run
  let after = -1; // the first at or after it (the text's length: none)
  // (by where each escape ends, which `test` gives without a match to build: `%XX` or `\u00XX`)
  for (ESCAPE.lastIndex = 0; ESCAPE.test(text); ) {
    let s = ESCAPE.lastIndex - (text.charCodeAt(ESCAPE.lastIndex - 3) === 37 ? 3 : 6);
    while (s > ran && runCode(text.charCodeAt(s - 1))) s--;
    RUN_ON.lastIndex = ESCAPE.lastIndex;
    RUN_ON.test(text);
    const e = (ESCAPE.lastIndex = ran = RUN_ON.lastIndex);
    if (e - s < 8) continue; // decoded, under 6 characters: no secret
    while (after < s) {
      before = after;
      after = text.indexOf("\n", after + 1);
      if (after < 0) after = text.length;
    }
    // the rest of the line: 64 characters, and the token running on past them (never half of it)
    let end = Math.min(text.length, e + 64);
    while (end < e + 256 && end < text.length && runCode(text.charCodeAt(end))) end++;
    end = Math.min(end, after); // (a run holds no line break: `after` is past it)
    const f = Math.max(s - 48, before + 1);
    if (regions.length && f <= regions[regions.length - 1]) regions[regions.length - 1] = Math.max(regions[regions.length - 1], end);
    else regions.push(f, s, end);
  }
  return regions;
}

/**
 * The regions (`regionsOf`) a noted value starts in, the only ones whose windows a second escape pass
 * reads. Reading fewer tells the same: a window changes only where a shape matches in it, and a gate,
 * a prefilter's words or a trigger a match needs are in the window it matches in.
 */
function holding(regions: number[], notes: Notes): number[] {
  const out: number[] = [];
  for (let r = 0, j = 0; r < regions.length; r += 3) {
    while (j < notes.length && (notes[j] as number) < regions[r]) j += 3;
    if (j < notes.length && (notes[j] as number) < regions[r + 2]) out.push(regions[r], regions[r + 1], regions[r + 2]);
  }
  return out;
}

/**
 * Secrets written with escapes (a token with one `\u0042` in JSON arguments, a URL-encoded query in a
 * redirect). Each run of token characters around an escape has a window: the run, what follows it on
 * its line (64 characters and the token they end in) and 48 characters before it. Windows that overlap
 * are one region, decoded once and redacted once (escape-dense text is one region, not a window per
 * escape); where that finds a secret, the stretch from the first change to the last stands in decoded
 * and masked, and the rest keeps its escapes. Each character is in one region: linear.
 */
const encodedOf = (shapes: Shape[], scan: (text: string, last?: Int32Array) => Uint8Array, least = Math.min(8, ...shapes.map((s) => s.min ?? 8))) => {
  const joinable = shapes.map((s) => s.pattern.multiline || !/[$^]/.test(s.pattern.source.replace(/\\.|\[(?:\\.|[^\]\\])*\]/g, "")));
  // `notes`: the values the shape pass masked; read in their markers' places by a second pass (`reading`)
  // (`found`: the regions, where a first pass that changed nothing found them in this very text)
  const pass = (text: string, notes?: Notes, reading?: boolean, found?: number[]): string => {
    if (!ESCAPE_NEAR.test(text)) return text;
    // (a second pass reads only the windows that hold a value: the rest are not decoded again)
    const regions = reading ? holding(found ?? regionsOf(text), notes!) : (found ?? regionsOf(text));
    // Each region decoded; then only the shapes whose prefilter holds somewhere in them are read, region
    // by region (escape-dense text has a region a line: the catalogue is asked once, not once a line)
    const starts: number[] = [];
    const spans: Notes[] = []; // where a window reads a masked value in its marker's place
    const all = decodeAll(text, regions, least, starts, reading ? notes : [], spans);
    const windowAt = (w: number) => all.slice(starts[w], w + 1 < starts.length ? starts[w + 1] - 3 : all.length);
    // (a window with its marker where each value it reads in its place still stands: as the text has it)
    const marked = (window: string, read: Notes = []) => {
      let out = "";
      for (let i = 0, at = 0; i <= read.length; at = read[i + 1] as number, i += 3) out += window.slice(at, read[i] as number) + (i < read.length ? REDACTED : "");
      return out;
    };
    // (the trigger scan first: one pass over them, where each prefilter tried would read them all). A
    // shape that finds nothing in them joined finds nothing in any: a match in one is one in the whole,
    // where its ends meet a line break rather than the text's ends, which only `^` and `$` (without
    // the `m` flag) and a look-around that takes a line break tell apart (none does: test/redact-checks.test.ts)
    const last = new Int32Array(shapes.length + 2).fill(-1); // (the scan's prefilters: the shapes', a Secret's kind, the escapes)
    const hit = scan(all, last); // (the shape pass's: its first entries are the shapes')
    // Shape by shape, each read only in the windows where its pattern finds a match in them joined
    // (escape-dense text has thousands of windows, a call of `apply` each), and in every window a shape
    // before it changed: a mask can make a match there (a value read on through a marker)
    const cleans: string[] = []; // the windows a shape changed, as they are now
    const noted: Seen[] = []; // where the values they read stand in them now (none: a mask took part of one)
    const changed: number[] = [];
    shapes.forEach((shape, k) => {
      if (!hit[k] || (hit[k] < 2 && shape.needs && !shape.needs.test(all)) || (shape.gate && !shape.gate(all))) return;
      const read = (w: number) => {
        if (reading && !spans[w]) return; // (read as it is by the first pass)
        const before = cleans[w] ?? windowAt(w);
        const after = before && apply(before, shape, false, (noted[w] ??= { joined: false, notes: spans[w]?.slice(), within: true }));
        if (after === before) return;
        if (cleans[w] === undefined) changed.push(w);
        cleans[w] = after;
      };
      const again = changed.slice();
      // (where shapes before changed every window, none is left to find: escape-dense text is one region)
      if (again.length < starts.length) {
        // (a pattern whose `^` or `$` a join would change: the windows holding its prefilter's words, which no mask makes)
        const finder = joinable[k] ? shape.pattern : shape.needs && globalOf(shape.needs);
        // (no window after the one the prefilter's last word is in can match: the joined windows are read to its end)
        const to = last[k] < 0 ? all : all.slice(0, starts.find((at) => at >= last[k]) ?? all.length);
        for (const w of finder ? windowsWith(finder, to, starts, joinable[k] ? shape.find : undefined) : starts.keys()) if (cleans[w] === undefined) read(w);
      }
      again.forEach(read);
    });
    let out = "";
    let at = 0; // text before `at` is written
    const cuts: (number | string)[] = []; // each stretch's start, what stands there, its end (the notes follow them)
    for (const w of changed.sort((a, b) => a - b)) {
      const window = marked(windowAt(w), spans[w]);
      // the values read are masked as the text has them (left as they were where a mask took part of one)
      const read = noted[w].notes;
      const clean = !reading ? cleans[w] : read ? marked(cleans[w], read) : window;
      // the stretch that changed, and where its ends stand in the text (its region read again to there)
      const [from, start, stop] = regions.slice(w * 3, w * 3 + 3);
      let head = 0;
      while (head < window.length && clean.charCodeAt(head) === window.charCodeAt(head)) head++;
      let tail = 0;
      while (tail < clean.length - head && tail < window.length - head && clean.charCodeAt(clean.length - 1 - tail) === window.charCodeAt(window.length - 1 - tail)) tail++;
      // (its start walked on from the region's, its end back from the region's stop: escape-dense text is one
      // region, a megabyte, whose changed stretch a walk from its start reaches only near its end)
      let t = from;
      for (let k = 0; k < head; k++) t += escapeIn(text, t, start, stop) < 0 ? 1 : text.charCodeAt(t) === 37 ? 3 : 6; // (a character or an escape)
      // (back as the walk on reads it: no escape crosses `stop`, and past its first character none holds a `%`
      // or a backslash, so the walk on meets every escape's first and decodes it: what ends at `e` is an escape
      // that starts 3 or 6 before it, or a character)
      let e = stop;
      for (let k = 0; k < tail; k++) e -= escapeIn(text, e - 3, start, stop) >= 0 ? 3 : text.charCodeAt(e - 6) === 92 && escapeIn(text, e - 6, start, stop) >= 0 ? 6 : 1;
      const stretch = clean.slice(head, clean.length - tail);
      out += text.slice(at, t) + stretch;
      cuts.push(t, stretch, (at = e));
    }
    out += text.slice(at);
    // a second pass reads the values where the first left their markers: it only masks more, its checks
    // judging a value where the first judged a marker's stand-in (a value that ran into the marker)
    return !reading && notes?.length && follow(text, cuts, notes) ? pass(out, notes, true, changed.length ? undefined : regions) : out;
  };
  return pass;
};

/**
 * The catalogue's shapes, each with every key any of them has, in one order: objects of one hidden
 * class, whose reads in `apply` and `passes` stay monomorphic. As literals, each with its own keys,
 * those reads turned megamorphic once many shapes had matched: in a process that had redacted the
 * bench's adversarial inputs, its slowest ran ~9 % slower (round 18).
 */
function uniform(given: Shape[]): Shape[] {
  const keys = [...new Set(given.flatMap(Object.keys))];
  return given.map((shape) => Object.assign(Object.fromEntries(keys.map((k) => [k])), shape));
}

/**
 * Redaction over a catalogue. `redact` replaces every recognised secret in a text, everything else
 * as it was; the kit is what streaming redaction (./stream.ts) and redaction in windows (./window.ts),
 * both loaded lazily, work with: handed over, not imported, so no chunk is shared.
 */
function kitOf(given: Shape[]) {
  const shapes = uniform(given);
  const [scan, redactShapes] = shapesOf(shapes);
  const redactEncoded = encodedOf(shapes, scan);
  const [kind, escapes] = [shapes.length, shapes.length + 1];
  return {
    // one scan tells the shapes, a Secret's kind and the escapes a text may hold; a mask makes no escape
    redact: (text: string) => {
      let hit = scan(text);
      const blocked = redactBlocks(text, false, hit[kind] > 0);
      if (blocked !== text) hit = scan(blocked);
      const notes: Notes = [];
      const out = redactShapes(blocked, false, hit, notes);
      return hit[escapes] ? redactEncoded(out, notes) : out;
    },
    /** A window of a longer text, redacted as the whole would redact it, given whether the whole is a Secret manifest and holds a `context` shape's context. */
    redactWindow: (text: string, manifest: boolean, about?: boolean, notes: Notes = []) => redactEncoded(redactShapes(redactBlocks(text, manifest), about, undefined, notes), notes),
    redactShapes,
    apply,
    redactEncoded,
    redactKeyBlocks,
    shapes,
    kubernetes: KUBERNETES_DATA,
    /** Whether a text may hold an escape the escape pass decodes (./window.ts). */
    escapes: ESCAPE_NEAR,
    bodyLine: BODY_LINE,
    /** For ./window.ts: which of some shapes' prefilters a text may hold (./triggers.ts). */
    triggersOf,
    /** For ./more.ts: what its rules are built from, and how it completes the catalogue in use. */
    parts: PARTS,
    extend,
    over: (more: Shape[]) => redactorOf([...more, ...shapes]),
  };
}
export type StreamKit = ReturnType<typeof kitOf>;

/** A run of token characters long enough to be a key. */
const TOKEN_RUN = /[\w+/=~-]{16}[\w+/=~-]*/g;

/**
 * An error message, safe to report: redacted whole, then every run with 16 letters and digits mixed
 * masked too (a provider echoes a key in whatever form it was sent, even one no shape knows), ids
 * excepted; capped last, so no cut can leave a piece of a secret.
 */
const messageOf = (redact: (text: string) => string) => (text: string, max = 500): string => {
  const clean = redact(text).replace(TOKEN_RUN, (run) => (NOT_SECRET.test(run) || !mixedRun(run, 16) ? run : mask(run)));
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
};

/**
 * Redaction as the pass hands it to the lazily loaded modules: they take it from the pass rather
 * than importing it, so a bundle of `import { plan }` (which never redacts) does not carry it in a
 * chunk shared with them (esbuild groups code by the files an entry reaches, not by what it runs).
 * They complete it (`redactMany`, the window functions) with ./window.ts, loaded with them.
 */
export interface PassRedactor {
  redact(text: string): string;
  redactMessage(text: string, max?: number): string;
  streamKit: StreamKit;
}

/** Redaction as the summary stage and pruning use it: the pass's, completed (./window.ts). */
export interface Redactor extends PassRedactor {
  redactMany(texts: string[]): string[];
}

/** The redactor over `shapes`: what a pass hands on. */
function redactorOf(shapes: Shape[], streamKit = kitOf(shapes)): PassRedactor {
  return { redact: streamKit.redact, redactMessage: messageOf(streamKit.redact), streamKit };
}

/**
 * The redactor in use: the catalogue of ./shapes.ts, completed by ./more.ts once that has loaded (with
 * the first pass that rewrites, or with the package's `redact`), through `extend`.
 */
export let streamKit = /* @__PURE__ */ kitOf(SHAPES);
export let redactor = /* @__PURE__ */ redactorOf(SHAPES, streamKit);
export const redact = (text: string): string => redactor.redact(text);
export const redactMessage = (text: string, max?: number): string => redactor.redactMessage(text, max);
export const redactEncoded = (text: string): string => streamKit.redactEncoded(text);
export const redactShapes = (text: string, about?: boolean): string => streamKit.redactShapes(text, about);
let extended = false;
/** Adds `more` to the catalogue in use (once) and returns the redactor in use. */
function extend(more: Shape[]): PassRedactor {
  if (!extended) {
    extended = true;
    streamKit = kitOf([...SHAPES, ...more]);
    redactor = redactorOf(streamKit.shapes, streamKit);
  }
  return redactor;
}
