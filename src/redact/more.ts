// The catalogue's second half, loaded with the first pass that rewrites (src/pass.ts) or with the
// package's `redact` (src/redact-entry.ts), never on the eager path of `compact`: the rule that a credential's
// name is enough, the shapes of issue 26 item 3 (SQL, command lines, calls, files, state, cookies,
// OAuth codes, base64-wrapped credentials, a value printed after a command that names a secret).
// Every pattern is linear, as in ./shapes.ts. It imports nothing of ./index.ts or ./shapes.ts but
// types: what it builds from is handed over (a module a lazy chunk imports is linked into every
// bundle that imports it too).
import type { PassRedactor, StreamKit } from "./index.js";
import type { Parts, Shape } from "./shapes.js";

/** The parts of ./shapes.ts and the rules built from them: set by `completed`, before any rule runs. */
let p: Parts;
let more: Shape[];

/**
 * Names whose value is a credential whatever it looks like: a password, a passphrase, a secret, an
 * API key, credentials; a token under a longer name (`GITHUB_TOKEN`, `access_token`, `authToken`).
 * Not a login, an auth scheme, a cookie, nor a bare `token` (an LLM's logprobs name words so).
 */
const CREDENTIAL_NAME = /^(?:pass(?:w(?:or)?d|phrase)?|pwd|[_-]pw|secret|credentials?|(?:api|private|signing|encryption|master)[_-]?key)|^token/i;
/**
 * A credential's key in JSON or YAML, as the rules of a value one step from its name read it: its word
 * last, then at most two of the secret-name rule's tails (`aws_secret_access_key`, `secret_key_base`).
 */
const KEY_WORD = String.raw`(?:passw(?:or)?d|passphrase|secret|token|api[_-]?key|private[_-]?key|credentials?)`;
/** A word of every such key (words, for the trigger scan). */
const KEY_WORDS = /passw|passphrase|secret|token|api_key|api-key|apikey|private_key|private-key|privatekey|credential/i;
/** Words a name's value may be that are no value: types, literals, settings, fetch's `credentials` modes, prose. */
const NOT_A_VALUE = new Set(
  (
    "bearer string str char text varchar bytes byte buffer number int integer long bool boolean any unknown object option secretstr secretstring secret " +
    "none null nil undefined true false yes no on off enabled disabled include omit same-origin required optional missing invalid incorrect wrong " +
    "expired correct empty stored needed changed updated reset rotated revoked provided given generated hashed encrypted masked hidden set unset " +
    "the this that your mine here there being still also not what which where when after before from with into used"
  ).split(" "),
);
/** NOT_A_VALUE's words by their shapes (`wordShape`: none of them starts or ends in `k`), made with the parts. */
let notAValueShapes: Set<number>;
/** Whether `word` is one of NOT_A_VALUE in any case, copied in lower case only where one has its shape. */
const notAValue = (word: string) => notAValueShapes.has(p.wordShape(word.length, word.charCodeAt(0), word.charCodeAt(word.length - 1))) && NOT_A_VALUE.has(word.toLowerCase());
/** What a reference starts with (REFERENCE's first alternative; `namedValue` reads it before any pattern). */
const REFERENCE_START = "$%@!*&#";
/**
 * A reference, not a value: `$X`, `${X}`, `%X%`, `{{ x }}`, `@Microsoft.KeyVault(…)`, a YAML tag or
 * alias (`!vault`, `*default`), a path of identifiers (`env.DB_PASSWORD`, `os.environ`, `self.token`).
 */
const REFERENCE = `^(?:[${REFERENCE_START}]|\\{\\{|\\[\\[)`;
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
export const PLACEHOLDER_VALUE = /^(?:\$[{(A-Za-z_]|%[A-Za-z_(]|<|\{[{A-Za-z_]|your[_-])|(?:^|[^A-Za-z0-9])(?:example|fake|dummy|changeme|placeholder|redacted)(?:$|[^A-Za-z0-9])|^[\w-]{0,12}?[xX*]{4,}(?:[-_][xX*]{4,})*[A-Za-z0-9]{0,4}$/i;
/** A reference, a call, a small number, a value shown but not given: one pattern for all. */
const NOT_VALUE = new RegExp(`${REFERENCE}|${CALL}|${SHOWN}|^\\d{1,5}[.,:;!?]*$`, "i");
/** NOT_VALUE or a whole placeholder: one call for both (each call costs more than its matching, and this runs per candidate). */
const NOT_VALUE_OR_PLACEHOLDER = new RegExp(`${NOT_VALUE.source}|${PLACEHOLDER_VALUE.source}`, "i");
/** A named value that is none, or stands for one: NOT_VALUE, a whole placeholder, AWS's `…EXAMPLE`, or as documentation writes one (stricter than ./shapes.ts's `standsFor`, which any value holding `xxxx` or `example` meets). */
const notNamedValue = (value: string) => NOT_VALUE_OR_PLACEHOLDER.test(value) || value.endsWith("EXAMPLE") || value.endsWith("EXAMPLEKEY") || p.documented(value);
/** A credential's word as a word of an identifier: `hashed_password`, `accessToken`, `apiKey`, `secret`. */
const NAMES_CREDENTIAL = /(?:^|_)(?:secret|pass(?:word)?|pwd|token|key|credentials?|auth)s?(?:_|$)|[a-z](?:Secret|Pass(?:word)?|Pwd|Token|Key|Credentials?|Auth)|^(?:secret|pass(?:word)?|pwd|token|key|credentials?|auth)[A-Z]/;

/**
 * Whether `value` is the credential a credential's name gives, whatever its entropy: a name of
 * CREDENTIAL_NAME (a word of its own, `DB_PASSWORD`, not `bypass`) assigned a value on its line, as a
 * flag (`--db-password x`), an argument (`getenv("API_TOKEN", "x")`) or in prose ("the password is
 * x"); unless the value is plainly none: a reference, a type, a literal or a small number, a path
 * without a random run (`*_FILE`), a placeholder, a code identifier. `at`: where the value stands in
 * the match, where the caller has read it.
 */
function namedValue(value: string, before: string, after: string, match: string, group: number, at?: number): boolean {
  // (cheap tests first, by char code where a pattern would be tried at every start, and read in place:
  // this runs for every value a credential's name gives, and adversarial text gives one every few characters;
  // each check before the last only turns a value down, so their order is their cost's alone)
  // a word that is no value (`Bearer` after `pwd=`, a type, a literal; after a bare space, group 4, the checks below turn one down sooner)
  if (group !== 4 && notAValue(value)) return false;
  // a password's name right after a letter of its case ends a word (`bypass`, not `DB_PASSWORD`, `dbPassword`, nor Postgres' `PGPASSWORD`); a bare `token` is no name
  const first = match.charCodeAt(0);
  const c = before.charCodeAt(before.length - 1);
  if (first === 112 ? c >= 97 && c <= 122 && passwordWord(match) : first === 80 ? c >= 65 && c <= 90 && passwordWord(match) && !before.endsWith("PG") : (first | 32) === 116 && !p.nameCode(c) && /^token/i.test(match)) return false;
  // a reference (`%VAR%`, `@var`), which NOT_VALUE turns down below, by its first character before a pattern is tried
  if (REFERENCE_START.includes(value[0])) return false;
  const n = at ?? p.valueAt(match, value); // the match before the value: its name and operator
  const prose = group === 4 && /\s(?:is|was)\s/i.test(match); // (the value, its last group, holds no space)
  const comma = holdsBefore(match, ",", n);
  // after a bare space, only a flag (`--password x`) or prose names a value (first of the name's checks: adversarial text gives one every few characters)
  if ((group === 4 && !prose && !comma && !flagBefore(before)) || !CREDENTIAL_NAME.test(match)) return false;
  // a value on the next line is a YAML block's next key; `name:value` unspaced is a label (`io.jsonwebtoken:jjwt-…`)
  if (holdsBefore(match, "\n", n) || match.charCodeAt(n - 1) === 58) return false;
  // Markdown's emphasis makes a label only where it opens at the name (`**Password:**`, `- **DB_PASSWORD**:`),
  // not a heading that ends in one (`**LiveView test: missing secret_key_base**: Added …`)
  if (holdsBefore(match, "*", n) && !/\*[\w.-]*$/.test(before)) return false;
  const last = match.charCodeAt(n - 1);
  // (after a bare space or "is", group 4, no quote stands before the spaces)
  const quoted = last === 34 || last === 39 || last === 96 || (group !== 4 && !(last > 32 && last < 127) && /["'`]\s{0,2}$/.test(match.slice(Math.max(0, n - 3), n))); // (its last 3 characters: anchored at the end, the pattern was tried at every start of a long match)
  let end = value.length;
  while (end > 1 && ".,:;!?".includes(value[end - 1])) end--;
  const word = end < value.length ? value.slice(0, end) : value;
  if (value.includes(".") && (p.codePath(value) || p.VERSION.test(value))) return false;
  if (value.charCodeAt(0) === value.charCodeAt(1) && REPEATED.test(value)) return false;
  if (notAValue(word) || notNamedValue(value)) return false;
  if (value.includes("/") && p.reference(value) && !p.mixedRun(value, 5)) return false;
  const identifier = identifierCode(value);
  if (!quoted && identifier && (NAMES_CREDENTIAL.test(value) || (!prose && ",;)]}[".includes(after || "\0")))) return false; // (`[`: a type, `Final[str]`, or a subscript)
  // beside a quoted name, a word is the next item of a list or object (`["secret", "token"]`, `"Secret","command":`)
  if (comma && identifier) return false;
  // prose names a value where it reads as one: quoted, with a digit, a symbol or mixed case, or a word
  // after a password's name that is no predicate ("the password is letmein", not "… is too short")
  return !prose || quoted || /[\d\W_]|[a-z][A-Z]/.test(word) || (passwordWord(match) && proseWord(word));
}

/**
 * Whether `before` ends in a flag's start (`--`, `--db-`): after a space, an operator (a flag given as a
 * name's value: `password=--token <key>`) or at the text's start, a dash and name characters, as
 * /(?:^|[\s=:])--?[\w.-]*$/ reads it, by hand: a pattern anchored at the end is tried at every start,
 * for every value adversarial text names every few characters.
 */
function flagBefore(before: string): boolean {
  let i = before.length;
  while (i > 0 && p.nameCode(before.charCodeAt(i - 1))) i--;
  return before.charCodeAt(i) === 45 && (i === 0 || /[\s=:]/.test(before[i - 1]));
}

/** Whether `text` holds `s` before index `n`. */
const holdsBefore = (text: string, s: string, n: number) => {
  const i = text.indexOf(s);
  return i >= 0 && i < n;
};
/** Whether `text` starts with `pass` or `pwd`, in any case (/^pass|^pwd/i). */
const passwordWord = (text: string) =>
  (text.charCodeAt(0) | 32) === 112 &&
  ((text.charCodeAt(1) | 32) === 97 ? (text.charCodeAt(2) | 32) === 115 && (text.charCodeAt(3) | 32) === 115 : (text.charCodeAt(1) | 32) === 119 && (text.charCodeAt(2) | 32) === 100);
/** An identifier in code (`password: hashedPassword,`, `token = accessToken;`): letters and `_` only; it names the credential rather than holding it. */
function identifierCode(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i) | 32;
    if (!(c >= 97 && c <= 122) && value.charCodeAt(i) !== 95) return false;
  }
  return value.length > 0;
}


/**
 * Words that follow "the password is" as a predicate, not a value: adverbs, adjectives of a policy or
 * a store, participles (NOT_A_VALUE holds the rest; the suffixes below those of participles and
 * adjectives, `hashed`, `expiring`, `sensitive`, `configurable`, `currently`). Only words of four
 * letters or more that neither rejects: `proseWord` reads it after both, and rejects shorter words.
 */
const PREDICATE = new Set(
  (
    "very case just then always never their because since like same different okay fine good weak strong short valid known secure insecure " +
    "safe unsafe public private default temporary temp blank shown sent kept gone lost mandatory below above been ready done whatever whichever " +
    "itself found read written overwritten chosen taken forgotten broken stolen left somewhere elsewhere anywhere nowhere unique random simple " +
    "easy hard trivial plain plaintext cleartext under behind inside outside within without"
  ).split(" "),
);
const PREDICATE_SUFFIX = /(?:ed|ing|[^f]ly|able|ible|ive|ful|less|ous)$/;
/** A lower-case word in prose after a password's name that reads as its value. */
const proseWord = (word: string) => {
  const w = word.toLowerCase();
  return w.length >= 4 && !NOT_A_VALUE.has(w) && !PREDICATE.has(w) && !PREDICATE_SUFFIX.test(w);
};

/**
 * The fixed starts vendors document for their token formats: all a marker may keep, so a reader can
 * tell which key it was. A list, not a shape: a password's first word (`Summer-…`, `purple-monkey-…`)
 * looks like a prefix and is the secret's own. Longest first.
 */
const PUBLIC_PREFIXES = (
  "sk-ant-admin01- sk-ant-api03- xoxe.xoxp- xoxe.xoxb- github_pat_ sk-svcacct- sk-admin- sk-proj- glagent- sk_live_ sk_test_ rk_live_ rk_test_ " +
  "sntrys_ sntryu_ dop_v1_ doo_v1_ dor_v1_ sq0atp- sq0csp- glsoat- whsec_ shpat_ shpss_ shpca_ shppa_ glcbt- glimt- glptt- gloas- glpat- gldt- glrt- glft- " +
  "glsa_ glc_ HRKU- xoxb- xoxp- xoxa- xoxe- xoxs- xoxo- xoxr- xapp- pypi- figd_ ghp_ gho_ ghu_ ghs_ ghr_ npm_ xai- gsk_ hvs. hvb. ya29. AKIA ASIA AIza hf_ SG. sk-"
).split(" ");

/** A value a name's own field gives (round 17's rules): what `namedValue` takes for none is none here too (a whole placeholder, not one holding `xxxx`). */
const fieldValue = (v: string) => !notNamedValue(v) && !/^[$:&?@%]/.test(v) && !NOT_A_VALUE.has(v.toLowerCase());
/** A value that only names or stands for one: `$VAR`, `:bind`, `&subst`, `${…}`, a placeholder. */
const named = (value: string) => /^[$:&?@%]/.test(value) || p.standsFor(value);
/** A value given, not one that stands for it: no reference and no placeholder (the key rules' check). */
const given = (value: string) => !named(value) && !PLACEHOLDER_VALUE.test(value);
/** A value a command or statement takes: single-quoted, double-quoted, or bare to the next space or separator. */
const TAKEN = String.raw`(?:'([^'\n]{1,256})'|"([^"\n]{1,256})"|([^\s'"|<>;&(),]{4,256}))`;
/** An argument of a call before the one that matters: a literal or a name (never a call or a comma). */
const ARG = String.raw`\s{0,4}(?:"[^"\n]{0,256}"|'[^'\n]{0,256}'|[^\s"'(),]{1,128})\s{0,4},`;
/** Arguments of a command line before the one that matters: never the flag itself (each tried once: linear). */
const argsBefore = (flags: string, max = 12) => String.raw`(?:${p.GAP}{1,4}(?!${flags})(?=(\S{1,256}))\1){0,${max}}`;

/** A value in its own base64: the decoded text if it is base64 of text, else undefined. */
function decoded(value: string): string | undefined {
  // never a length atob rejects: a thrown error costs more than the whole check (adversarial text has one a match)
  const padded = value.endsWith("=");
  if (value.length < 12 || (padded ? value.length % 4 : value.length % 4 === 1) || !/^[A-Za-z\d+/]+={0,2}$/.test(value)) return undefined;
  let text: string;
  try {
    text = atob(value);
  } catch {
    return undefined;
  }
  let printable = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 32 && c < 127) || c === 9 || c === 10 || c === 13) printable++;
  }
  return printable >= text.length * 0.95 ? text : undefined;
}

/** Text that holds a credential: a private key, `user:password` alone (`basic`: where Basic credentials stand), a field or an assignment of a secret's name (no redaction again: this runs for every candidate). */
const holdsCredential = (text: string, basic = false) =>
  /-----BEGIN[A-Z ]{0,40}PRIVATE KEY/.test(text) ||
  (basic && /^[^\s:"{}]{1,128}:[^\s"]{1,256}$/.test(text)) ||
  /"(?:private_key|client_secret|password|refresh_token|secret|token)"\s{0,4}:\s{0,4}"[^"]{4}/.test(text) ||
  /(?:pass(?:w(?:or)?d)?|secret|token|api[_-]?key)["']?\s{0,4}[=:]\s{0,4}["']?[^\s"']{4}/i.test(text);

/** Base64 of text with no credential in it: a certificate, a note, a public key (checked decoded). */
const plainBase64 = (value: string) => {
  const text = decoded(value);
  return text !== undefined && !holdsCredential(text);
};

/** Commands that print a secret's value: echo/printf/cat, terraform output, base64 -d, a jsonpath, vault get, a secrets manager's read. */
const SHOWS = /\b(?:echo|printf|cat|terraform[ \t]{1,4}output|base64[ \t]{1,4}(?:-d|--decode|-D)|jsonpath|vault[ \t]{1,4}(?:kv[ \t]{1,4})?(?:get|read)|get-secret-value|secrets[ \t]{1,4}versions[ \t]{1,4}access|op[ \t]{1,4}read)\b/;

/** Whether the line that `before` ends in shows a secret (a printed value's first check). */
const shows = (before: string) => p.compiled(SHOWS).test(before.slice(before.lastIndexOf("\n") + 1));
/** SHOWS where it starts: the check reads 64 characters of a line, which may cut it after a word character. */
const SHOWING = new RegExp(SHOWS.source.slice(2), "g");
/**
 * The next match of a printed value's shape from `pattern.lastIndex` that its first check may take.
 * After 8 matches in a row it turned down (a long listing, or a log of short lines: each line a
 * match), from the next line that holds a command that shows one (none: no match is taken).
 */
function afterShows(pattern: RegExp, text: string): RegExpExecArray | null {
  for (let m = pattern.exec(text), misses = 0; m; m = pattern.exec(text)) {
    if (shows(text.slice(Math.max(0, m.index - 64), m.index))) return m;
    if (++misses > 8) {
      SHOWING.lastIndex = m.index + 1; // (the next match's line starts after this one's break)
      const next = SHOWING.test(text) ? text.indexOf("\n", SHOWING.lastIndex) : -1;
      if (next < 0) break;
      pattern.lastIndex = next;
      misses = 0;
    }
  }
  return (pattern.lastIndex = 0), null;
}

/** Words that end a value in prose: articles, pronouns, prepositions, conjunctions. */
const STOP = "(?:the|a|an|to|for|and|or|in|on|at|with|from|into|of|by|is|was|be|are|if|when|then|that|which|so|but|as|not|no|it|this|your|my|our|their|its|until|unless|while|after|before|because|since|via|using|again)\\b";
const PROSE_WORD = `(?!${STOP})[a-z]{2,24}`;
/**
 * A password in prose: after "password/passphrase is|was" (also "the root password for the box is",
 * "password for admin:"), "set/reset/changed the password to", "password has been reset to", "pw:", or a
 * bare "passphrase": a passphrase of 3 to 8 words up to the first word that ends it, or one value
 * (the rule of a credential's name runs first and masks a passphrase's first word: the rest is read after the mask).
 */
const PROSE_PASSWORD = new RegExp(
  String.raw`(?<![\w$.@-])(?:pass(?:word|phrase|wd)(?:(?:[ \t]{1,4}(?:for|of|on)(?:[ \t]{1,4}[\w.@-]{1,32}){1,3})?[ \t]{1,4}(?:is|was)|[ \t]{1,4}(?:for|of|on)(?:[ \t]{1,4}[\w.@-]{1,32}){1,3}[ \t]{0,2}:|(?:[ \t]{1,4}(?:has|had)[ \t]{1,4}been)?[ \t]{1,4}(?:re)?set[ \t]{1,4}to)[ \t]{1,4}|(?:set|reset|changed?|updated?)[ \t]{1,4}(?:(?:the|my|your|its|our)[ \t]{1,4})?(?:[\w-]{1,24}[ \t]{1,4})?pass(?:word|phrase)[ \t]{1,4}to[ \t]{1,4}|pw[ \t]{0,2}[:=][ \t]{0,4}|passphrase[ \t]{1,4})["'\x60]?` +
    String.raw`(?:(${PROSE_WORD}(?:[ \t]${PROSE_WORD}){2,7})(?![\w-])|\[REDACTED\][ \t](${PROSE_WORD}(?:[ \t]${PROSE_WORD}){1,6})(?![\w-])|([^\s"'\x60]{3,127}[^\s"'\x60.,;:!?)]))`,
  "gi",
);
/** Whether a run of words is a passphrase: its first word no predicate, or four words or more of which no other is one. */
const passphrase = (run: string) => {
  const [first, ...rest] = run.split(/[ \t]/);
  return proseWord(first) || (rest.length >= 3 && rest.every(proseWord));
};

/** Characters that show as nothing: a zero-width space, non-joiner, joiner, word joiner, byte-order mark. */
const INVISIBLE = /[\u200b-\u200d\u2060\ufeff]/g;
/** The catalogue before these rules: what a run of token characters split by invisible characters is read with, joined. */
let redactCore: (text: string) => string;

/** The shapes of issue 26 item 3, and the base64-wrapped credentials, as general rules. */
const moreShapes = ({ GAP, QUOTED, SECRET_TAIL, SECRET_WORD, eitherCase }: Parts): Shape[] => [
  {
    // A token split by characters that show as nothing (`ghp_Zx81…\u200bk3vT…`): read joined, with its
    // line before it (a name may be what makes it a secret), and masked whole where the joined run is one
    // (only from a run's start: a run without one is given up once)
    // (a run may start with a marker: the part before the invisible character was masked by a rule before)
    pattern: /\[REDACTED\]((?:[\u200b-\u200d\u2060\ufeff]{1,4}[\w+/=.~-]{1,256}){1,8})|(?<![\w+/=.~-])[\w+/=.~-]{1,256}(?:[\u200b-\u200d\u2060\ufeff]{1,4}[\w+/=.~-]{1,256}){1,8}/g,
    group: [1],
    needs: /\u200b|\u200c|\u200d|\u2060|\ufeff/, // (a word each to the triggers)
    valid: (v, before, _after, _match, group) => {
      if (group === 1) return true;
      const joined = v.replace(INVISIBLE, "");
      const line = before.slice(before.lastIndexOf("\n") + 1).replace(INVISIBLE, "");
      return !redactCore(line + joined).endsWith(joined);
    },
  },
  {
    // Passwords in prose (issue 26 item 1): where a sentence names the value after more words than the
    // catalogue's names take, or a passphrase of several words; a bare "passphrase" only before words
    pattern: PROSE_PASSWORD,
    // (group 2: the rest of a passphrase whose first word the name's rule masked already)
    group: [1, 2, 3],
    needs: /passw|passp|pw[ \t]{0,2}[:=]/i, // (what every match holds: not the "pass" of "passed" tests, nor a "pw" inside a random run)
    valid: (v, _before, _after, match, group) => {
      if (group !== 3) return group === 1 ? passphrase(v) : v.split(/[ \t]/).every(proseWord);
      if ((match.charCodeAt(4) | 32) === 112 && /^passphrase[ \t]{1,4}["'\x60]?[^ \t]*$/i.test(match)) return false; // a bare passphrase names a run of words only
      let end = v.length;
      while (end > 0 && ".,:;!?".includes(v[end - 1])) end--;
      const word = end < v.length ? v.slice(0, end) : v;
      // after "to", a word is what the password is set to do (`to expire`): a value holds a digit, a symbol or mixed case
      if (/[ \t]to[ \t]{1,4}["'\x60]?[^ \t]*$/.test(match) && !/[\d\W_]|[a-z][A-Z]/.test(word)) return false;
      // a PowerShell cmdlet or a call assigned to a `pw` variable: code, not a value
      return !NOT_A_VALUE.has(word.toLowerCase()) && !/^[A-Z][a-z]+-[A-Z]/.test(v) && !named(v) && !NOT_VALUE.test(v) && !p.reference(v) && (/[\d\W_]|[a-z][A-Z]/.test(word) || proseWord(word));
    },
  },
  {
    // A name and its value in fields of their own: Kubernetes' and ECS's env entries (`- name: DB_PASSWORD`
    // then `value: …`, `{"name": "DB_PASSWORD", "value": "…"}`), the name's last words a credential's
    // (not `PASSWORD_MIN_LENGTH`), its value given (not `valueFrom:`, a reference or a placeholder)
    pattern: new RegExp(
      String.raw`\bname["']?[ \t]{0,4}[:=][ \t]{0,4}["']?[\w.-]{0,64}?(?:${SECRET_WORD.source})${SECRET_TAIL}["']?[ \t]{0,4},?[ \t]{0,4}(?:\r?\n[ \t]{0,40})?["']?value["']?[ \t]{0,4}:[ \t]{0,4}${QUOTED}`,
      "gi",
    ),
    group: [1, 2, 3],
    needs: /value/i,
    valid: fieldValue,
  },
  {
    // A name and its value in a Markdown table's cells, a word each (a summary's table of settings:
    // `| DB_PASSWORD | hunter22x |`), in backticks or emphasis; not a table of what settings are (`| string |`)
    pattern: new RegExp(String.raw`\|[ \t]{0,4}[\x60*]{0,2}[\w.-]{0,64}?(?:${SECRET_WORD.source})${SECRET_TAIL}[\x60*]{0,2}[ \t]{0,4}\|[ \t]{0,4}\x60?([^\s|\x60]{4,128})\x60?[ \t]{0,4}\|`, "gi"),
    group: [1],
    needs: /secret|pass|pw|token|key|credential|auth|login|cookie/i, // (a word of every name)
    gate: (t) => t.includes("|"),
    valid: fieldValue,
  },
  {
    // .netrc's password after its machine and login, on a line or across lines (`machine github.com login alice password …`)
    pattern: /\bmachine[ \t]{1,4}[^\s"'<>]{1,253}(?:\s{1,8}(?:login|account)[ \t]{1,4}\S{1,128}){0,2}\s{1,8}password[ \t]{1,4}(\S{1,128})/g,
    group: [1],
    needs: /machine/,
    valid: fieldValue,
  },
  {
    // A type between a credential's name and its quoted value: TypeScript's and Python's annotations
    // (`apiKey: string = "…"`, `api_key: str = "…"`, `Final[str]`), C#'s property
    // (`ClientSecret { get; set; } = "…"`); a literal in quotes only (`= os.environ[…]` is code)
    pattern: new RegExp(
      String.raw`(?:${SECRET_WORD.source})${SECRET_TAIL}(?:[ \t]{0,2}:[ \t]{0,4}[A-Za-z_][\w.]{0,40}(?:[<[][\w.<>[\], ]{0,40}[>\]])?\??|[ \t]{0,4}\{[ \t]{0,4}get;[ \t]{0,4}(?:(?:private|protected|internal)[ \t]{1,4})?(?:set|init);[ \t]{0,4}\})[ \t]{0,4}=[ \t]{0,4}(?:'([^'\n]{4,128})'|"([^"\\\n]{4,128})"|\x60([^\x60\n]{4,128})\x60)`,
      "gi",
    ),
    group: [1, 2, 3],
    needs: /secret|pass|pw|token|key|credential|auth|login|cookie/i, // (a word of every name)
    gate: (t) => t.includes("="), // (name-dense text without one never reads the names again)
    valid: fieldValue,
  },
  {
    // SQL that sets a password, as Oracle, MySQL, MariaDB and Postgres document it: IDENTIFIED BY,
    // SET PASSWORD FOR … =, [WITH] [ENCRYPTED] PASSWORD after a role or user; not a bind variable
    pattern: new RegExp(
      String.raw`\b(?:IDENTIFIED\s{1,4}BY(?:\s{1,4}PASSWORD)?|SET\s{1,4}PASSWORD\s{1,4}FOR\s{1,4}[^=\n;]{1,128}=(?:\s{0,4}PASSWORD\s{0,4}\()?|(?:WITH\s{1,4}(?:LOGIN\s{1,4})?|(?:ROLE|USER)\s{1,4}[\w"']{1,64}\s{1,4})(?:ENCRYPTED\s{1,4})?PASSWORD)\s{0,4}${TAKEN}`,
      "gi",
    ),
    group: [1, 2, 3],
    needs: /identified|password/i,
    valid: (v) => !named(v) && !NOT_A_VALUE.has(v.toLowerCase()) && !/^(?:values|externally|globally|is|was|for)$/i.test(v),
  },
  {
    // Oracle's tools take user/password[@alias] as their first arguments (sqlplus, expdp, impdp, rman, sqlldr, dgmgrl)
    pattern: /\b(?:sqlplus|expdp|impdp|rman|sqlldr|dgmgrl)\b[^\n/]{0,64}?[\s=]["']?[A-Za-z]\w{0,29}\/([^\s/@"']{1,128})(?=@|["']?(?:\s|$))/gi,
    group: [1],
    needs: /sqlplus|expdp|impdp|rman|sqlldr|dgmgrl/i,
    valid: (v) => !named(v),
  },
  {
    // A value piped into a command that reads a secret on stdin (`echo pw | docker login --password-stdin`,
    // `| gh secret set X`, `| wrangler secret put X`, `| chpasswd`, `| passwd --stdin`); printf's format first
    pattern: new RegExp(
      String.raw`\b(?:echo|printf)(?:[ \t]{1,4}-[neE]{1,3}){0,2}(?:[ \t]{1,4}(["'])%s(?:\\n)?\1)?[ \t]{1,4}(?:'([^'\n]{1,256})'|"([^"\n]{1,256})"|([^\s|'"<>;&]{4,256}))[ \t]{0,4}\|[ \t]{0,4}(?=[^|\n]{0,160}?(?:secret|passw|chpasswd|login|token))`,
      "gi",
    ),
    group: [2, 3, 4],
    needs: /echo|printf/i,
    gate: (t) => t.includes("|"),
    valid: (v) => !named(v) && !/^\$\(/.test(v),
  },
  {
    // A here-string into such a command (`wrangler secret put X <<< pw`, `chpasswd <<< 'user:pw'`)
    pattern: new RegExp(String.raw`(?:secret|passw|chpasswd|login|token)[^\n<]{0,160}<<<[ \t]{0,4}${TAKEN}`, "gi"),
    group: [1, 2, 3],
    needs: /<<</,
    valid: (v) => !named(v),
  },
  {
    // Commands that store a secret, given by a flag: gh secret set -b/--body, az keyvault secret set --value,
    // aws ssm put-parameter --value, aws secretsmanager --secret-string, gcloud, vault, doppler
    // (either case spelled out, not the i flag: the same matches, compiled in ~1 ms rather than ~3–7 the first time a text says "secret")
    pattern: new RegExp(
      eitherCase(
        String.raw`\b(?:gh${GAP}{1,4}secret${GAP}{1,4}set|az${GAP}{1,4}keyvault${GAP}{1,4}secret${GAP}{1,4}set|aws${GAP}{1,4}(?:ssm${GAP}{1,4}put-parameter|secretsmanager${GAP}{1,4}[\w-]{1,32})|doppler${GAP}{1,4}secrets${GAP}{1,4}set|ConvertTo-SecureString)` +
          argsBefore(String.raw`(?:-b|--body|--value|--secret-string|-String)(?![\w-])`) +
          String.raw`(?:${GAP}{1,4}(?:-b|--body|--value|--secret-string|-String)(?:${GAP}{1,4}|=)|(?<=ConvertTo-SecureString)${GAP}{1,4})${QUOTED}`,
      ),
      "g",
    ),
    group: [2, 3, 4],
    needs: /secret|ssm|ConvertTo-SecureString/i,
    far: true,
    long: true,
    valid: (v) => !named(v) && !/^-/.test(v),
  },
  {
    // Passwords by position: htpasswd -b file user pw, rabbitmqctl add_user/change_password user pw
    pattern: new RegExp(
      String.raw`\b(?:htpasswd${GAP}{1,4}-[a-zA-Z]{0,6}b[a-zA-Z]{0,6}(?:${GAP}{1,4}-\S{1,16}){0,3}${GAP}{1,4}\S{1,256}|rabbitmqctl${GAP}{1,4}(?:add_user|change_password))${GAP}{1,4}[^\s-]\S{0,127}${GAP}{1,4}${QUOTED}`,
      "g",
    ),
    group: [1, 2, 3],
    needs: /htpasswd|rabbitmqctl/,
    valid: (v) => !named(v),
  },
  {
    // Credentials passed by position in code: JDBC's getConnection(url, user, pw), Go's smtp.PlainAuth(identity,
    // user, pw, host) and SetBasicAuth(user, pw), .NET's NetworkCredential(user, pw), Java's
    // PasswordAuthentication(user, pw), Sequelize(db, user, pw), ldap Bind(dn, pw); a literal only
    pattern: new RegExp(
      String.raw`\b(?:(?:getConnection|PlainAuth|Sequelize)\s{0,2}\(${ARG}${ARG}|(?:SetBasicAuth|NetworkCredential|PasswordAuthentication|UsernamePasswordCredentials|BasicAuth|basicAuth|Bind)\s{0,2}\(${ARG})\s{0,4}(["'\x60])([^"'\x60\n\\]{1,256})\1`,
      "g",
    ),
    group: [2],
    needs: /getConnection|PlainAuth|Sequelize|BasicAuth|NetworkCredential|PasswordAuthentication|UsernamePassword|Bind/i,
    valid: (v) => !named(v),
  },
  // A Go driver's DSN: user:password@tcp(host)/db
  { pattern: /["'`][\w.-]{1,64}:([^\s:@/"'`]{1,128})@(?:tcp|unix)\(/g, group: [1], needs: /@tcp\(|@unix\(/, valid: (v) => !named(v) },
  {
    // .pgpass lines, as Postgres documents them: hostname:port:database:username:password
    pattern: /^(?:[\w.-]{1,253}|\*):(?:\d{1,5}|\*):(?:[\w.-]{1,63}|\*):(?:[\w.@-]{1,63}|\*):([^\s:]{4,256})$/gm,
    group: [1],
    needs: /:0\d{0,4}:|:1\d{0,4}:|:2\d{0,4}:|:3\d{0,4}:|:4\d{0,4}:|:5\d{0,4}:|:6\d{0,4}:|:7\d{0,4}:|:8\d{0,4}:|:9\d{0,4}:|:\*:/, // `:(?:\d{1,5}|\*):`, words to the triggers
    valid: (v) => !named(v) && !/^\d+$/.test(v),
  },
  // Laravel's APP_KEY (and any key written `base64:` as Laravel does): 32 random bytes in base64
  { pattern: /\bbase64:([A-Za-z\d+/]{32}[A-Za-z\d+/]*={0,2})/g, group: [1], needs: /base64:/ },
  {
    // WordPress's keys and salts as wp-config.php defines them (not its `put your unique phrase here`)
    pattern: /define\(\s{0,4}(["'])(?:AUTH|SECURE_AUTH|LOGGED_IN|NONCE)_(?:KEY|SALT)\1\s{0,4},\s{0,16}(?:'([^'\n]{1,256})'|"([^"\n]{1,256})")/g,
    group: [2, 3],
    needs: /define\(/,
    valid: (v) => !/put your unique phrase/i.test(v),
  },
  // Terraform's CLI credentials per host, `TF_TOKEN_app_terraform_io=…`
  { pattern: /\bTF_TOKEN_[\w-]{1,128}\\?["']?\s{0,4}[=:]\s{0,4}\\?["']?([^\s"'\\]{8}[^\s"'\\]*)/g, group: [1], needs: /TF_TOKEN_/, valid: (v) => !named(v) },
  {
    // `terraform output -json`: an output marked sensitive holds its value in plain text, whatever its name
    // (`"sensitive": true, "type": "string", "value": "…"`, on one line or as it prints it)
    pattern: /"sensitive"\s{0,16}:\s{0,16}true\s{0,16},\s{0,16}(?:"type"\s{0,16}:\s{0,16}"[^"\n]{0,64}"\s{0,16},\s{0,16})?"value"\s{0,16}:\s{0,16}"((?:[^"\\\n]|\\.)+)"/g,
    group: [1],
    needs: /"sensitive"/,
    far: true,
    long: true, // (a kubeconfig, a service account's key: the value whole, whatever its length)
  },
  {
    // An object under a credential's name holds it in its `value` (`"db_password": {"value": "…"}`, an output
    // of `terraform output -json` not marked sensitive): the name's own rule reads the object, not the value
    // (the name ends in the word: `max_tokens`, `token_type`, `secret_name`, `passwordField` name no credential)
    pattern: new RegExp(String.raw`"[\w.-]{0,64}?${KEY_WORD}${SECRET_TAIL}"\s{0,16}:\s{0,16}\{[^{}]{0,256}?"value"\s{0,16}:\s{0,16}"((?:[^"\\\n]|\\.){4}(?:[^"\\\n]|\\.)*)"`, "gi"),
    group: [1],
    needs: /"value"/, // (what marks a window far: a name word would mark every text saying "token")
    gate: (text) => KEY_WORDS.test(text),
    far: true,
    long: true,
    valid: given,
  },
  {
    // A YAML block scalar under a credential's name (`password: |`, `client_secret: >-`, `|2-`, `!!str |`): the value is the
    // indented line after it (a longer block is a key's or a document's, which their own rules read), which
    // the name's own rule reads as the next key's line; a real or an escaped line break (a manifest in a JSON string)
    pattern: new RegExp(String.raw`${KEY_WORD}${SECRET_TAIL}\\?["']?:[ \t]{0,4}(?:[!&][^\s]{0,32}[ \t]{1,4})?[|>](?:[-+]?\d?|\d[-+])[ \t]{0,4}(?:\r?\n[ \t]{1,32}(\S[^\r\n]{0,399})|(?:\\r)?\\n[ \t]{1,32}([^\s\\"][^\n\\"]{0,399}))`, "gi"),
    group: [1, 2], // (escaped, the line ends at the JSON string's end too)
    needs: KEY_WORDS,
    gate: (text) => /:[ \t]{0,4}(?:[!&]\S{0,32}[ \t]{1,4})?[|>]/.test(text),
    breaks: true, // the value within 96 characters of the name's start
    valid: given,
  },
  {
    // Terraform state: attributes it marks sensitive, which hold the value in plain text
    pattern: /"(?:plaintext_value|secret_string|sensitive_content|secret_data|bcrypt_hash|private_key_pem|private_key_openssh)"\s{0,4}:\s{0,4}"((?:[^"\\\n]|\\.){4,400})"/g,
    group: [1],
    needs: /plaintext_value|secret_string|sensitive_content|secret_data|bcrypt_hash|private_key_(?:pem|openssh)/,
  },
  {
    // random_password's `result` in Terraform state (only where the state holds one)
    pattern: /"result"\s{0,4}:\s{0,4}"((?:[^"\\\n]|\\.){4,400})"/g,
    group: [1],
    needs: /random_password/,
    context: true,
    holds: '"result"',
  },
  {
    // A session cookie: a name that says session (`sessionid`, `PHPSESSID`, `connect.sid`,
    // `laravel_session`) in a Cookie header or a cookie string (`; ` between pairs)
    // (anchored on the word: a name's start read at every position would cost 40 characters each)
    pattern: /(?:sess(?:ion)?|sid)[\w.-]{0,20}=([^;\s"'\\&,]{8}[^;\s"'\\&,]*)/gi,
    group: [1],
    needs: /sess|sid/i,
    gate: (t) => t.includes("="),
    valid: (v, before, after) => (/cookie/i.test(before) || after === ";") && !named(v),
  },
  {
    // An OAuth authorization code in a callback URL: beside `state=`, or under a callback path
    pattern:
      /[?&]code=([^&#\s"'<>]{8}[^&#\s"'<>]*)(?=[^\s"'<>#]{0,512}?&state=)|[?&]state=[^&#\s"'<>]{1,512}&code=([^&#\s"'<>]{8}[^&#\s"'<>]*)|\/(?:callback|oauth2?|redirect|authorize)[\w/.-]{0,64}\?(?:[^#\s"'<>&]{0,256}&)?code=([^&#\s"'<>]{8}[^&#\s"'<>]*)/gi,
    group: [1, 2, 3],
    needs: /code=/i,
    valid: (v) => !/^\d+$/.test(v),
  },
  {
    // Base64-wrapped credentials, decoded and checked: a PEM private key (`LS0tLS1CRUdJTi…`), JSON
    // (a service account) or `user:password` (Basic credentials outside Authorization:, a docker
    // config's `auth`)
    pattern: /(?<![\w+/=-])(?:LS0tLS1CRUdJT|ew|ey|e3)[A-Za-z\d+/]{22}[A-Za-z\d+/]*={0,2}(?![\w+/=-])|(?:\bBasic\s{1,4}|["']auth["']\s{0,4}:\s{0,4}["'])([A-Za-z\d+/]{8}[A-Za-z\d+/]*={0,2})/g,
    group: [1],
    needs: /LS0tLS1CRUdJT|\bew|\bey|\be3|Basic|auth/,
    valid: (v, _before, _after, _match, group) => {
      const text = decoded(v);
      return text !== undefined && holdsCredential(text, group === 1);
    },
  },
  // Vendors whose documented formats the first half misses, from each vendor's documentation:
  // Grafana service account tokens, `glsa_` + 32 letters and digits + `_` + an 8-hex checksum
  // (https://grafana.com/docs/grafana/latest/administration/service-accounts/#service-account-tokens);
  // OpenAI project, service account and admin keys without the marker the first half looks for, as long
  // as today's keys (over 80 characters after the prefix; a short one is an example)
  // (https://platform.openai.com/docs/api-reference/authentication); Terraform Cloud API tokens,
  // 14 characters, `.atlasv1.`, the rest (https://developer.hashicorp.com/terraform/cloud-docs/users-teams-organizations/api-tokens)
  {
    pattern: /\bglsa_[A-Za-z\d]{32}_[\da-f]{8}\b|\bsk-(?:proj|svcacct|admin)-[\w-]{80}[\w-]*|\b[A-Za-z\d]{14}\.atlasv1\.[\w-]{60}[\w-]*/g,
    needs: /glsa_|sk-(?:proj|svcacct|admin)-|\.atlasv1\./,
  },
  {
    // A value printed bare on the line after a command that shows a secret (`echo $DB_PASSWORD`,
    // `kubectl … jsonpath='{.data.password}' | base64 -d`, `terraform output -raw db_password`, `vault kv get -field=…`)
    // (read from the value's line back: a command word read forward would rescan its line at every repeat)
    pattern: /\n([^\s]{4,512})(?=\r?\n|$)/g,
    group: [1],
    needs: /echo|printf|cat|output|base64|jsonpath|vault|secret|op read/,
    find: afterShows,
    far: true,
    // the command's line: its last 64 characters, which a check reads
    valid: (v, before) =>
      shows(before) &&
      p.SECRET_WORD.test(before.slice(before.lastIndexOf("\n") + 1)) && !named(v) && !p.reference(v) && !NOT_A_VALUE.has(v.toLowerCase()) && !/^[\w.-]+:$|^\W+$/.test(v),
  },
];

/**
 * The redactor the pass hands on: the one in use, its catalogue completed with the rules above (once
 * in a process; after that, every redaction reads the whole catalogue).
 */
export function completed(core: PassRedactor, secrets?: string[]): PassRedactor {
  const kit: StreamKit = core.streamKit;
  if (!more) {
    p = kit.parts;
    notAValueShapes = p.wordShapes(NOT_A_VALUE);
    redactCore = kit.redact;
    p.hooks.named = namedValue;
    p.hooks.plain = plainBase64;
    p.hooks.prefix = new RegExp(`^(?:${PUBLIC_PREFIXES.map((x) => x.replace(/\./g, "\\.")).join("|")})`);
    more = moreShapes(p);
  }
  const inUse = kit.extend(more);
  const known = secrets && knownValues(secrets);
  return known ? inUse.streamKit.over([known]) : inUse;
}

/** The forms a known value is written in: raw, JSON-escaped, URL-encoded, base64 (padded, and unpadded inside a longer text). */
function forms(value: string): string[] {
  const all = [value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value)];
  try {
    const b64 = btoa(value);
    all.push(b64, b64.replace(/=+$/, ""));
  } catch {
    // not Latin-1: no base64 of it as a string
  }
  return all;
}

/**
 * Known values (`secrets`, and the worker's own keys) as one shape: an alternation of literals, the
 * longest first, read once over the text like any other shape. Values under 4 characters are too
 * common to mask.
 */
function knownValues(secrets: string[]): Shape | undefined {
  const literals = [...new Set(secrets.filter((v) => v.length >= 4).flatMap(forms))].sort((a, b) => b.length - a.length);
  if (!literals.length) return undefined;
  const source = (list: string[]) => list.map((l) => l.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).join("|");
  // the prefilter, each form's first 8 characters: a text holding a form holds them, and the trigger
  // scan's automaton (./triggers.ts, built again for each pass's catalogue) takes a row of its table for
  // every character of its words: whole values, hundreds of them, took hundreds of MB
  return { pattern: new RegExp(source(literals), "g"), needs: new RegExp(source(literals.map((l) => l.slice(0, 8)))), long: true, min: 4 };
}
