// The catalogue of secret shapes. Every pattern is linear: bounded repeats, or an unbounded one only
// where nothing after it can fail; no nested quantifiers; a literal or a word boundary to anchor it.

export interface Shape {
  pattern: RegExp;
  /** Capture groups that may hold the secret (the first that matched); absent: the whole match. */
  group?: number[];
  /** Groups whose value was found by position only (after a name), so it must also look random. */
  random?: number[];
  /** Skip the pattern unless the text contains this (a cheap prefilter). */
  needs?: RegExp;
  /** Skip the pattern unless this holds of the text (a prefilter read by hand, where a regex is slow). */
  gate?: (text: string) => boolean;
  /** The next match from `pattern.lastIndex`, as `exec` finds it, where by hand is faster (the pattern is tried only near what every match holds). */
  find?: (pattern: RegExp, text: string) => RegExpExecArray | null;
  /** A cheaper pattern that finds the same where the text lacks `lite[0]` (which the rest of `pattern` needs). */
  lite?: [RegExp, RegExp];
  /**
   * A match may hold a line break (a name on one line, its value on the next), at most 96 characters
   * after it starts: streaming redaction checks such shapes with the lines before a window.
   */
  breaks?: true;
  /**
   * Groups whose value may be a name of the shape's own, whose value follows it (`password: token: <key>`):
   * no value then, and the pattern reads on from it (./index.ts `namesAhead`).
   */
  labels?: number[];
  /**
   * Groups whose value, turned down by the checks, is read again for a match inside it where it holds a
   * word of `needs` (which the shape must have): a name's value may be the next name, or hold it with its
   * operator (`password token <key>`, `token: DB_PASSWORD=<value>`).
   */
  reread?: number[];
  /**
   * A match may hold a line break further from its start: streaming redaction keeps its whole
   * context after this shape's prefilter.
   */
  far?: true;
  /** A match may run past 512 characters from its start (not counting a run of token characters): its prefilter widens the window `redactFrom` reads. */
  long?: true;
  /**
   * Its prefilter (`needs`) names what the text is about, not what a match holds (`sqlplus` for
   * Oracle's user/password@): a part of a text is redacted as the whole only by one that knows
   * whether the whole holds it.
   */
  context?: true;
  /** What every match of a `context` shape holds (no marker does): a window without it reads alike wherever the context is. */
  holds?: string;
  /** Its shortest match, where under 8 characters (every shape of the catalogue needs 8: `?pwd=abc`; a known value 4). */
  min?: number;
  /** A last check on the value, with the 64 characters before the match, the one after it, the match, and the group that holds the value (0: the whole match). */
  valid?: (value: string, before: string, after: string, match: string, group: number) => boolean;
}

/**
 * Vendor-prefixed tokens: cloud, source hosting, chat, payment, model providers and the like. One
 * pattern, so the text is scanned once for all of them; most vendors that put a short prefix and a
 * separator before a random body need no entry here (see `prefixedToken`).
 */
export const VENDOR = [
  /(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z\d])[A-Z\d]{16}\b/, // AWS access key ids
  /AIza[\w-]{35}/, // Google API keys
  // GitHub; its fine-grained tokens github_pat_, 22 letters and digits, _, 59 more (a longer one too: GitHub
  // says its tokens may grow); npm's npm_ and 36 letters and digits
  /gh[pousr]_[A-Za-z\d]{30}[A-Za-z\d]*|github_pat_[A-Za-z\d]{22}_[A-Za-z\d]{59}[A-Za-z\d]*|npm_[A-Za-z\d]{36}\b/,
  // GitLab: personal, deploy, runner and the like; trigger tokens are hex, OAuth secrets 64 long
  /gl(?:pat|dt|rt|cbt|imt|ft|soat)-(?=[\w-]{0,60}\d)[\w-]{20}[\w-]*|glptt-[\w-]{40}\b|glagent-[\w-]{50}[\w-]*|gloas-[\w-]{64}\b|GR1348941[\w-]{19,80}[A-Za-z\d]\b/,
  /xox[abposre]-[\w-]{10}[\w-]*|xapp-\d-[\w-]{10}[\w-]*/, // Slack (xoxe.xoxp-… rotating tokens included)
  /sk-ant-(?:api|admin)\d\d-[\w-]{20}[\w-]*/, // Anthropic
  // OpenAI project and service keys carry "T3BlbkFJ" (base64 of "OpenAI"); plain sk- keys are many vendors'
  /sk-(?:proj|svcacct|admin)-(?=[\w-]{0,200}T3BlbkFJ)[\w-]{20}[\w-]*|sk-[A-Za-z\d]{20}[\w-]*/,
  /[rs]k_(?:live|test|prod)_[A-Za-z\d]{16}[A-Za-z\d]*|sq0(?:atp|csp)-[\w-]{22}[\w-]*|EAA[A-Za-z\d]{20}[\w-]*/, // Stripe (publishable pk_ keys are public), Square, Meta (Square's EAAA tokens hold - and _)
  /ATATT[\w=-]{30}[\w=-]*|ABSK[A-Za-z\d+/]{40}[A-Za-z\d+/]*={0,2}/, // Atlassian, Bedrock
  /(?:SK|AC)[\da-fx]{32}\b|SG\.[\w-]{22}\.[\w-]{43}\b/, // Twilio (hex, or the x of its documentation), SendGrid
  /A3-[A-Z\d]{6}-(?:[A-Z\d]{11}|[A-Z\d]{6}-[A-Z\d]{5})(?:-[A-Z\d]{5}){3}\b/, // 1Password secret keys
  /v1\.0-[\da-f]{24}-[\da-f]{100}[\da-f]*|dapi[\da-f]{32}(?:-\d)?\b/, // Cloudflare origin CA, Databricks
  /AP[\dA-F][A-Za-z\d]{10}[A-Za-z\d]*(?![\w-])|AKC[A-Za-z\d]{10}[A-Za-z\d]*/, // Artifactory (never the head of a longer token: a Firebase server key's APA91b…-…)
  /(?:hf|api_org)_[A-Za-z]{30}[A-Za-z]*/, // Hugging Face (letters only)
  /(?:sntry[su]|fm[12]r?)_[\w+/=-]{40}[\w+/=-]*|ZXlK[\w+/]{40}[\w+/]*|sha256~[\w-]{43}/, // base64 bodies (Sentry, Fly, a JWT encoded again), OpenShift
  /(?:hv[sbr]|s)\.(?=[\w-]{0,30}\d)[\w-]{24}[\w-]*|dp\.[a-z]{2,5}\.(?:[\w-]{1,20}\.)?[A-Za-z\d]{40}[A-Za-z\d]*/, // Vault, Doppler (dotted prefixes)
  // From each vendor's documented format. Dotted: Dynatrace (prefix.public.secret), Terraform Cloud,
  // Google OAuth access and refresh tokens, Dropbox, Mapbox secret tokens, Airtable
  /dt0[a-z]\d\d\.[A-Z\d]{24}\.[A-Z\d]{64}|(?<=[A-Za-z\d]{14})\.atlasv1\.[\w-]{60}[\w-]*|ya29\.[\w-]{20}[\w-]*|1\/\/0[\w-]{40}[\w-]*|sl\.(?:u\.)?[\w-]{100}[\w-]*|sk\.eyJ[\w-]{10}[\w-]*\.[\w-]{20}[\w-]*|pat[A-Za-z\d]{14}\.[\da-f]{64}/,
  // Glued prefixes: NuGet, crates.io, Alibaba and Tencent Cloud key ids, Bitbucket app passwords, JFrog
  // reference tokens (base64 of "reftkn"), LaunchDarkly, Braintree, Okta (00 and 40 mixed-case characters)
  /oy2[a-z\d]{43}\b|cio[A-Za-z\d]{32}\b|LTAI[A-Za-z\d]{12,20}\b|AKID[A-Za-z\d]{32}\b|ATBB[A-Za-z\d]{28}[A-Za-z\d]*|cmVmdGtu[A-Za-z\d+/]{20}[A-Za-z\d+/]*={0,2}|(?:sdk|api)-[\da-f]{8}(?:-[\da-f]{4}){3}-[\da-f]{12}\b|access_token\$(?:production|sandbox)\$\w{16}\$[\da-f]{32}|00(?=[\w-]{0,39}[a-z])(?=[\w-]{0,39}[A-Z])[\w-]{40}\b/,
]
  .map((r) => r.source)
  .join("|");

/**
 * Every vendor token above starts with one of these characters: a word that starts with none skips
 * the alternation (most words; the scan runs twice as fast). test/redact-equivalence.test.ts checks it.
 */
export const VENDOR_START = "[AgGxsrESvdhafZy1poLc0.n]";

/**
 * `pattern`, run once on a long text that holds nothing it matches. V8 compiles a pattern's first run
 * on a text of 1,000 characters or more straight to machine code, but a short one's to bytecode that
 * the next run replaces (a fresh process's first pass compiled the vendor alternation twice over).
 */
export const compiled = (pattern: RegExp) => (warm.has(pattern) || (warm.add(pattern), pattern.test(NOTHING), (pattern.lastIndex = 0)), pattern);
const warm = new WeakSet<RegExp>();
const NOTHING = "\0".repeat(1000);

/** The vendor tokens' alternation where it is tried (sticky). */
const VENDOR_AT = new RegExp(`(?:${VENDOR})`, "y");
/** Whether a value starts in a vendor's own token format (the alternation at its start: one pattern to compile, not two). */
export const token = (value: string) => ((VENDOR_AT.lastIndex = 0), VENDOR_AT.test(value));

/** A base64url segment decoded (atob accepts it unpadded), or "" when it is not base64. */
function base64url(segment: string): string {
  try {
    return atob(segment.replace(/-/g, "+").replace(/_/g, "/"));
  } catch {
    return "";
  }
}

/**
 * A JWT's header is base64url of a whole JSON object: `{…}`. A token whose claims give it the role
 * `anon` is a Supabase anon key, which Supabase documents as public (it reaches only what row-level
 * security allows), like its successor `sb_publishable_`.
 */
function jwtSecret(token: string): boolean {
  const [header, claims] = token.split(".", 2);
  return /^\{[^]*\}\s*$/.test(base64url(header)) && !/"role"\s*:\s*"anon"/.test(base64url(claims));
}

/** The char codes below 128 of word characters and of `extra` (a table of 256: `codesOf`'s 128 for a character past ASCII is in none). */
export const runOf = (extra: string) => Uint8Array.from({ length: 256 }, (_, c) => +(/\w/.test(String.fromCharCode(c)) || extra.includes(String.fromCharCode(c))));
const WORD = runOf("-");
const WORD_CHAR = runOf("");
const BASE64 = runOf("-+/=");
const VALUE_RUN = runOf("+~-");

const encoder = new TextEncoder();
/** By a UTF-8 byte: the UTF-16 units its character takes if it leads one (a continuation: none). */
const UNITS = Uint8Array.from({ length: 256 }, (_, b) => (b < 128 || (b >= 192 && b < 240) ? 1 : b >= 240 ? 2 : 0));
let coded: string | undefined;
let codes = new Uint8Array(0);
/**
 * `text`'s char codes as bytes, past ASCII 128, then a 0; the last text's kept. A loop over a string's
 * characters runs several times slower once it has met strings of several kinds (a pass hands it all
 * of them), one over bytes never: the run finders below read these. UTF-8 from the native encoder,
 * each character past ASCII (its bytes) then made one 128 (two for a surrogate pair's four). The buffer
 * grows to a long text's 4 bytes a character, and is let go at the next text of ordinary size (a 2 MB
 * output must not hold 8 MB for the life of a worker). It starts at the 256 KB it may keep: code that
 * V8 optimizes before a line of it has run is thrown away when the line first runs (the vendor tokens'
 * finder, the costliest to compile, was compiled twice in a fresh process, at its first text over 1,365
 * characters); the first call grows it.
 */
export function codesOf(text: string): Uint8Array {
  if (text === coded) return codes;
  if (codes.length <= text.length * 3 || codes.length > Math.max(1 << 18, text.length * 64)) codes = new Uint8Array(Math.max(1 << 18, text.length * 4));
  const { written } = encoder.encodeInto(text, codes);
  // Past ASCII, every byte read again from the first (ASCII: the last only, kept as it is), by a table,
  // with no branch but a value's: each line has run before V8 optimizes the finders this is inlined in
  // (their code was thrown away at a fresh process's first text past ASCII). Each byte adds the UTF-16
  // units of the character it leads and writes their code; a continuation's write is overwritten by the
  // next, and a write ahead of the byte read lands on a continuation of the same character (read alike).
  let n = written > text.length ? 0 : written && written - 1;
  for (let i = n; i < written; i++) {
    const b = codes[i];
    codes[n] = codes[n + (UNITS[b] >> 1)] = b < 128 ? b : 128;
    n += UNITS[b];
  }
  codes[n] = 0;
  coded = text;
  return codes;
}

/**
 * Where the first `min` characters of `run` in a row start at `from` or after, in `c` of `n` (`codesOf`;
 * none: `n`). Skipping ahead: a window must cover the character `min` after one that is not in the run,
 * so each look starts there and reads back (the regex engine is several times slower at runs), never
 * into what it has read (`read`: the characters after it to `end` are in the run).
 */
function windowFrom(c: Uint8Array, n: number, from: number, min: number, run: Uint8Array): number {
  for (let end = from + min - 1, read = from - 1; end < n; ) {
    let at = end;
    while (at > read && run[c[at]]) at--;
    if (at === read) return end - min + 1;
    read = end; // (two assignments, not a destructured pair: its iterator doubled this function's bytecode, which the finders inline)
    end = at + min; // `at` is not in the run: the next window ends `min` past it
  }
  return n;
}

/** Where the first whole run of `run`'s characters, `min` to `max` long, starts at `from` or after (-1: none). */
function runFrom(text: string, from: number, min: number, max: number, run: Uint8Array): number {
  const c = codesOf(text);
  for (let s = windowFrom(c, text.length, from, min, run); s < text.length; ) {
    let start = s;
    while (start > 0 && run[c[start - 1]]) start--;
    let stop = s + min;
    while (run[c[stop]]) stop++; // (the 0 after the text ends it)
    if (start >= from && stop - start <= max) return start;
    s = windowFrom(c, text.length, stop + 1, min, run);
  }
  return -1;
}
/** Whether `text` holds `min` characters of `run` in a row. */
export const hasRun = (text: string, min: number, run: Uint8Array) => runFrom(text, 0, min, Infinity, run) >= 0;

/** A run of letters and digits, at least `min` long, that mixes both: the random part of a token. */
export function mixedRun(value: string, min: number): boolean {
  // by char code: called for every candidate value, it must not allocate
  let run = 0;
  let digits = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i); // never past the end: V8 reads that on a slow path
    const digit = c >= 48 && c <= 57;
    if (digit || ((c | 32) >= 97 && (c | 32) <= 122)) {
      run++;
      if (digit) digits++;
    } else if (run >= min && digits && digits < run) return true;
    else run = digits = 0;
  }
  return run >= min && digits > 0 && digits < run;
}

/**
 * A short vendor prefix in one case and a separator (npm_, sgp_local_, CLOJARS_, tk-us-, GOCSPX-),
 * then 20+ characters with a long random run: the shape most vendors use, including ones we have
 * never seen. Words joined by separators (paths, kebab-case names, UUIDs) have no long random run.
 * sk_/pk_ are secret for most vendors (OpenRouter, ClickUp, ElevenLabs): only Stripe's publishable
 * pk_live_/pk_test_ keys are public; OpenAI's own sk-proj-… keys are judged by their marker above.
 */
const VENDOR_PREFIX = /^(?!(?:foo|test|pk_(?:live|test)|sk-(?:proj|svcacct|admin)|gl[a-z]{2,5})[_-])(?:(?:[a-z][a-z\d]{0,9}|[A-Z][A-Z\d]{0,9})[_-]){1,2}(?=[\w-]{20})/;
const MIXED_HEX_40 = /^(?=[\da-f]{0,39}[A-F])(?=[\dA-F]{0,39}[a-f])[\da-fA-F]{40}$/;

/**
 * After the prefix, a run of 16 letters and digits mixed, or a base64url body of 20+ characters whose
 * `-` and `_` cut every run short (Mailchimp Transactional's `md-`) that passes the bare-token gate.
 */
function prefixedToken(value: string): boolean {
  const prefix = VENDOR_PREFIX.exec(value);
  if (!prefix) return MIXED_HEX_40.test(value); // 40 hex digits in both cases are a token too; a git SHA is lower case
  const body = value.slice(prefix[0].length);
  return mixedRun(body, 16) || (body.length >= 20 && bareToken(body));
}

/** Base64 or a token (digits, padding, a case change inside), not a word: "required", "default", "YOUR_TOKEN". */
export const encoded = (value: string) => /[\d+/=]|[a-z][A-Z]/.test(value);

/** Names that mark the value beside them as a secret (the last word of the name). */
const SECRET_NAME = "(?:secret|pass(?:w(?:or)?d|phrase)?|pwd|[_-]pw|token|(?:api|private|signing|encryption|master)[_ -]?key|credentials?|auth|login|cookie)";
/**
 * Words after a secret word that keep the value the secret: `SECRET_KEY_BASE`, `JWT_SECRET_KEY`,
 * `PASSWORD_SALT`, `TOKEN_VALUE`, `SECRET_ACCESS_KEY`; not `PASSWORD_MIN_LENGTH` or `TOKEN_URL`, which say what the value is.
 */
const SECRET_TAIL = "(?:(?:[_.-]| (?=[akAK]))?(?:access|key|base|salt|pepper|value)){0,2}";
/** Markdown's emphasis around a name or its operator (`*` only: `__` cost the rule ~5 % on adversarial names for what summaries seldom write). */
const EMPHASIS = "\\*{0,2}";
/**
 * `=`, `:`, `:=`, `?=`, `::=`, `=>`, an XML tag's `>` or an XML `value=` attribute, with quotes (escaped
 * too), a subscript's closing `]` (`app.config["SECRET_KEY"] =`, `settings[:secret_token] =`), Markdown's
 * emphasis on either side (`**Password:** …`, `- **DB_PASSWORD**: …`: a summary's labels) and spaces.
 */
const ASSIGN_OP = `(?:[_-]?\\d{1,2})?\\\\?["'\`]?\\]?${EMPHASIS}\\s{0,4}(?:[:?+!]{0,3}=|=>|:|>|\\s{1,4}value\\s{0,2}=)${EMPHASIS}\\s{0,4}`;
/** The operator, then the value's opening quote if any. */
const ASSIGN = `${ASSIGN_OP}\\\\?["'\`]?\\s{0,2}`;
/** A value stops at whitespace, quotes, separators and brackets. */
export const VALUE = "[^\\s\"'`,;&()<>{}[\\]\\\\]";
/** A JSON `\u` escape of a printable character: part of a value written in a JSON string (`Maple\u0026Juniper`). */
const JSON_ESCAPE = "\\\\u00[2-7][\\dA-Fa-f]";
/** A value's character, or such an escape: a value is masked whole, never cut at an escape. */
const VALUE_CHAR = `(?:${VALUE}|${JSON_ESCAPE})`;
/**
 * A named value: 4 characters or more, or a marker a rule before wrote where the value starts (`AP0…+AKIA…-aAaa`:
 * a token's rule masked its start; a token's characters before it at most), read on through it (./index.ts).
 */
const NAMED_VALUE = `(?:[\\w+/.-]{0,3}\\[REDACTED\\]|${VALUE_CHAR}{4})${VALUE_CHAR}*`;
/**
 * A value in quotes or backticks after its opening one (lookbehinds, behind one that fails at once where
 * no quote stands: in the group of a bare value, as the rule's checks read its groups by number), to its closing one on its line: Markdown's code and
 * template literals quote values in backticks, prose and a flag's argument in either quote (`password:
 * \`purple monkey dishwasher\``, `the password is 'Sp4ce d0g!'`, `--passphrase 's3c@ret&key'` had left all
 * but their first word).
 */
const IN_QUOTES = "(?<=[`'\"])(?:(?<=`)[^`\\n]{4,400}(?=`)|(?<=')[^'\\n]{4,400}(?=')|(?<=\")[^\"\\n]{4,400}(?=\"))";
/**
 * A value in quotes runs to its closing quote on its line, separators and brackets included
 * (`OCI_AUTH_TOKEN='Tq…;(MG'`), one in backticks too; groups: single-quoted, double-quoted (escaped
 * quotes too), bare or in backticks.
 */
const QUOTED_VALUE = `(?:'([^'\\n]{4,400})'|\\\\?"((?:[^"\\\\\\n]|${JSON_ESCAPE}){4,400})\\\\?"|\\\\?["'\`]?\\s{0,2}(${IN_QUOTES}|${NAMED_VALUE}))`;
/**
 * Public keys and tokens are not secrets, nor CSRF tokens, nor what a name says is not one (`not_secret`); npm's own `_authToken` key has its shape
 * (but `AUTH` as a word of a longer name is no npm key: `TWILIO_AUTH_TOKEN` is a secret).
 */
const NOT_AFTER = /(?:public|csrf|xsrf|site)[_-]?$|(?<![A-Za-z\d])_auth$|(?<![A-Za-z])not[_-]$/gi;
/** Whether NOT_AFTER ends `before`: tried only where its match (at most 7 characters) can start, not at every start. */
export const notAfter = (before: string) => ((NOT_AFTER.lastIndex = Math.max(0, before.length - 7)), NOT_AFTER.test(before));

/**
 * A CSRF token guards a form, it grants nothing: a match is left where a CSRF name gives it, the name
 * running on into the match (`X-CSRF-` then `Token: …`), its operator and quotes between them and the
 * match its value (`csrftoken=…`, `X-CSRF-Token: …`), or the name closed and the match its next
 * attribute or last word (`name="csrf-token" content="…"`, `CSRF token: …`). Not where anything else
 * stands between ("the csrf check failed, password: …", `X-CSRF-Token: abc; Authorization: Bearer …`),
 * nor another credential's name after its operator (`csrf: password=…`), nor the word inside a random
 * run (`…Wx7xsrf token: …`): the word anywhere on the line before once turned down every match after
 * it, vendor tokens included.
 */
const CSRF = /(?<![A-Za-z\d])[cx]srf[\w-]*(?: ?token)?(?:(\\?["']?(?:\s{0,4}[:=]|\s{1,4}(?:content|value)\s{0,2}=)\s{0,4}\\?["']?)|(\\?["']\s{1,4}|\s))?$/i;
/** Whether a CSRF name `before` the match gives it (`CSRF`): where an operator stands between, the match is its value (a quote before it at most). */
export function csrfNamed(before: string, match: string, value: string): boolean {
  const named = CSRF.exec(before);
  // (a CSRF signing secret's name, `WTF_CSRF_SECRET_KEY`, `csrf-secret`, names no token)
  if (!named || /secret|key|pass|salt/i.test(named[0])) return false;
  if (named[1]) return /^\\?["'`]?$/.test(match.slice(0, valueAt(match, value)));
  if (named[2]) return /^(?:(?:content|value)\s{0,2}=|token\b)/i.test(match);
  return match === value || /^token/i.test(match); // the name runs on into the match: its value, or its last word `token`
}
/** Whether the char code is a name's: a letter, digit, `_`, `.` or `-`. */
export const nameCode = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 46 || c === 45;
/** Whether the char code is a space the patterns' `\s` takes (ASCII ones and NBSP suffice here). */
const spaceCode = (c: number) => c === 32 || (c >= 9 && c <= 13) || c === 160;
const quoteCode = (c: number) => c === 34 || c === 39;

/**
 * Where `value` stands last in `match` (`lastIndexOf`): at its end, where it ends it, as it mostly does
 * (`endsWith` is a compiled builtin; `lastIndexOf` a call into the runtime, ~2× its cost, per candidate).
 */
export const valueAt = (match: string, value: string) => (match.endsWith(value) ? match.length - value.length : match.lastIndexOf(value));
/** The char code at `k` of `before` and then `match`, read in place: joined, they would be copied whole at the first read, for every candidate value. */
const codeAt = (before: string, match: string, k: number) => (k < before.length ? before.charCodeAt(k) : match.charCodeAt(k - before.length));
/** The characters from `i` to `end` of `before` and then `match`, copied only there. */
const between = (before: string, match: string, i: number, end: number) => {
  const b = before.length;
  return i >= b ? match.slice(i - b, end - b) : end <= b ? before.slice(i, end) : before.slice(i) + match.slice(0, end - b);
};

/**
 * The name a value is assigned to, that ends at `end` (`nameEnd`; -1: none) in `before` and then
 * `match`: the whole run of name characters, a letter first, at most 60. By hand, from the end: a
 * pattern anchored at the end is tried at every start (~3 µs a value).
 */
function nameBefore(before: string, match: string, end: number): string | undefined {
  if (end < 0) return undefined;
  let i = end;
  while (i > 0 && end - i <= 60 && nameCode(codeAt(before, match, i - 1))) i--;
  const first = codeAt(before, match, i);
  const letter = (first >= 97 && first <= 122) || (first >= 65 && first <= 90);
  if (!(end > i && end - i <= 60 && letter && !(i > 0 && nameCode(codeAt(before, match, i - 1))))) return undefined;
  return between(before, match, i, end);
}
/**
 * Where the name a value is assigned to ends, read back from the end of `before` and then of the first
 * `n` characters of `match` after it (the match up to the value): `name = `, `"name": "`, `name => '`,
 * escaped quotes too (its operator and quotes skipped); -1 where no operator stands.
 */
function nameEnd(before: string, match: string, n: number): number {
  let i = before.length + n;
  if (quoteCode(codeAt(before, match, i - 1))) i--;
  if (codeAt(before, match, i - 1) === 92) i--;
  for (let k = 0; k < 4 && spaceCode(codeAt(before, match, i - 1)); k++) i--;
  const op = codeAt(before, match, i - 1);
  if (op === 62 && codeAt(before, match, i - 2) === 61) i -= 2; // =>
  else if (op === 61 || op === 58) i--; // = :
  else return -1;
  for (let k = 0; k < 4 && spaceCode(codeAt(before, match, i - 1)); k++) i--;
  if (quoteCode(codeAt(before, match, i - 1))) i--;
  if (codeAt(before, match, i - 1) === 92) i--;
  return i;
}
/**
 * The last word of a name (camelCase split) that says its value is no credential: an id, a hash or
 * digest (`sha-256=` of RFC 9530 too), a nonce, a trace, a record's key (`cache-key`, `Idempotency-Key`).
 */
export const ID_WORDS = new Set(["id", "ids", "kid", "n", "e", "x", "y", "x5t", "x5c", "hash", "digest", "checksum", "etag", "nonce", "md5", "trace", "span", "boundary", "ray"]);

/** The words before `key` that make it a record's key (`cache-key`, `Idempotency-Key`), in lower case. */
const ID_KEY_WORDS = ["cache", "idempotency"];
/**
 * A word by its length, first and last character, a letter in lower case by `| 32`: where no word of a
 * list has its shape, it is none of them, and is not copied and lower-cased to be looked up (`toLowerCase`
 * takes no letter to ASCII but the Kelvin sign, U+212A: a list whose words start or end in `k` must not be
 * read so where a name may hold one).
 */
export const wordShape = (length: number, first: number, last: number) => (length << 16) | ((first | 32) << 8) | (last | 32);
/** The shapes of `words` (`wordShape`). */
export const wordShapes = (words: Iterable<string>) => new Set(Array.from(words, (w) => wordShape(w.length, w.charCodeAt(0), w.charCodeAt(w.length - 1))));
/** The words `idEnding` takes but digits (ID_WORDS, `key`, `sha`), by their shapes: few names' last words have one. */
const ID_SHAPES = wordShapes([...ID_WORDS, "key", "sha"]);

/** Where the word of `name` that ends at `end` starts: after a `_`, `.` or `-`, or at a capital after a lower-case letter or a digit. */
export function wordStart(name: string, end: number): number {
  let i = end;
  while (i > 0) {
    const c = name.charCodeAt(i - 1);
    if (c === 95 || c === 46 || c === 45) break;
    i--;
    const upper = c >= 65 && c <= 90;
    const p = name.charCodeAt(i - 1);
    if (upper && i > 0 && ((p >= 97 && p <= 122) || (p >= 48 && p <= 57))) break;
  }
  return i;
}

/**
 * Whether the last word of the name that ends at `end` (in `before`, then `match`; -1: none) may be one
 * that `idWord` reads as an id's: one of ID_WORDS, `sha` and digits, `key` after a word that ends
 * as one of ID_KEY_WORDS does, or digits. The word as `wordStart` splits it; false is `idWord`'s answer too.
 */
function idEnding(before: string, match: string, end: number): boolean {
  let i = end;
  for (let c = codeAt(before, match, i - 1); i > 0; ) {
    if (c === 95 || c === 46 || c === 45 || !nameCode(c)) break;
    if (end - --i > 8) return false; // no id word is longer ("checksum")
    const p = codeAt(before, match, i - 1); // (the next character read)
    if (c >= 65 && c <= 90 && ((p >= 97 && p <= 122) || (p >= 48 && p <= 57))) break;
    c = p;
  }
  if (i === end) return false;
  // (a name's characters are ASCII; one that ends in a digit is read whole)
  const last = codeAt(before, match, end - 1);
  if (!(last >= 48 && last <= 57) && !ID_SHAPES.has(wordShape(end - i, codeAt(before, match, i), last))) return false;
  const word = between(before, match, i, end).toLowerCase();
  // (`key` by the last letter of the word before it, a character between: `apiKey`, `api_key` read no further)
  if (word === "key") return ID_KEY_WORDS.some((w) => w.charCodeAt(w.length - 1) === (codeAt(before, match, i - 2) | 32));
  return ID_WORDS.has(word) || /^(?:sha)?\d*$/.test(word);
}

/** Whether a name's last word says its value is no credential (an id, a hash, a JWK's public member), by hand: per candidate value. */
function idWord(name: string): boolean {
  const start = wordStart(name, name.length);
  if (name.length - start > 8) return false; // no id word is longer ("checksum")
  const c = name.charCodeAt(start) | 32;
  if (!(c >= 48 && c <= 57) && !"bcdehikmnrstxy".includes(String.fromCharCode(c))) return false; // no id word starts otherwise
  const word = name.slice(start).toLowerCase();
  if (ID_WORDS.has(word) || /^sha\d*$/.test(word)) return true;
  if (start < 2 || (word !== "key" && !/^\d+$/.test(word))) return false;
  const previous = name.slice(wordStart(name, start - 1), start - 1).toLowerCase();
  return (previous === "sha" && /^\d+$/.test(word)) || (word === "key" && ID_KEY_WORDS.includes(previous));
}
/** A secret name anywhere in a name keeps its value a secret, whatever its last word (`secret_id`). */
export const SECRET_WORD = new RegExp(SECRET_NAME, "i");

/** A credential's name, and its operator where glued to it: `DB_PASSWORD=`, `api_key:`, `dbPassword`. */
const NAME_AND_OPERATOR = new RegExp(`^[\\w.-]{0,64}?${SECRET_NAME}${SECRET_TAIL}s?[=:]{0,2}$`, "i");
/**
 * Whether `value`, a shape's value that ends at `end` in `text`, is a credential's name before the
 * value it gives (`Bearer DB_PASSWORD='…'`, `Bearer dbPassword = …`: a token's pattern stops at the
 * quote or the space): it names the value after it, which the name's own shape masks, and is none
 * itself. Not a padded token whose letters end in such a word: it mixes letters and digits. (Right
 * after a value that stops before `=` or `:`, no name: `…/webhooks/<token>:`.)
 */
export function namesNext(value: string, text: string, end: number): boolean {
  // (by char code: a check of every value about to be masked)
  const last = value.charCodeAt(value.length - 1);
  let k = end;
  let c = text.charCodeAt(k);
  while ((c === 32 || c === 9) && k < end + 4) c = text.charCodeAt(++k);
  // with its operator: a quote or the `>` of `=>` right after it, or spaces and the value; alone: spaces and its operator
  const gives = last === 61 || last === 58 ? (k === end ? c === 39 || c === 34 || c === 96 || c === 62 : c > 32) : k > end && (c === 61 || c === 58);
  return gives && NAME_AND_OPERATOR.test(value) && !mixedRun(value, 5);
}

/**
 * `source` with each letter outside a class as a class of both cases: the `i` flag's meaning for a
 * pattern whose classes hold no letters to fold and whose escapes no hex digits, at a third of V8's
 * compiling (which a fresh process's first pass pays).
 */
const eitherCase = (source: string) => source.replace(/\\.|\[(?:\\.|[^\]\\])*\]|[a-z]/gi, (t) => (t.length > 1 ? t : `[${t.toLowerCase()}${t.toUpperCase()}]`));

/**
 * The value after `before` is named as no credential: an id (`trace_id`, `requestId`, `X-Request-Id`, WebAuthn's `credentialId`,
 * `node_id`), a hash (`etag`, `checksum`, `sha-256`), a nonce, a record's key, a JWK's public member
 * (`n`, `e`, `x`, `y`, `kid`, `x5t`, `x5c`; `d` and `k` are private).
 */
export function idNamed(before: string, match = "", n = 0): boolean {
  const end = nameEnd(before, match, n);
  // (the name's last word first, read in place: few names end in an id's word, and adversarial text names a value every few characters)
  if (!idEnding(before, match, end)) return false;
  const name = nameBefore(before, match, end);
  return !!name && idWord(name) && !SECRET_WORD.test(name.replace(/credentials?/gi, ""));
}


/**
 * A password as policies ask for one: 8+ characters with letters, digits and symbols, and no space,
 * call, reference or path (`[parameters('adminPassword')]`, `@Microsoft.KeyVault(SecretUri=…)`, `#{Pw}`).
 */
const passwordLike = (value: string) =>
  value.length >= 8 && /\d/.test(value) && /[A-Za-z]/.test(value) && /[^\w\s]/.test(value) && !/\s|\w\(|[$#{]\{|\//.test(value) && !PLACEHOLDER.test(value) && !VERSION.test(value);

/** The match starts at a password's name, a word of its own (`DB_PASSWORD`, `dbPassword`, `pwd`; not `bypass`). */
const passwordNamed = (before: string, match: string) => /^(?:pass|pwd|[_-]pw)/i.test(match) && !/[a-z]p|[A-Z]P/.test(before.slice(-1) + match[0]);
/**
 * Whether a value is a CSRF cookie (`csrftoken=…`, `XSRF-TOKEN=…`, in any case: /^[cx]srf[\w-]*=/i, its
 * prefix by char code: per candidate value); not a password that starts with the word (`xsrfaaaa-aaaa-10`).
 */
const csrfCookie = (v: string) => ((v.charCodeAt(0) | 32) === 99 || (v.charCodeAt(0) | 32) === 120) && (v.charCodeAt(1) | 32) === 115 && (v.charCodeAt(2) | 32) === 114 && (v.charCodeAt(3) | 32) === 102 && /^[\w-]*=/.test(v.slice(4));
/** Lower-case hex digits, or a UUID: under a bare `key` (no word before it), a record's key, not a credential. */
const HEX_ID = /^(?:[\da-f]{8,64}|[\da-f]{8}(?:-[\da-f]{4}){3}-[\da-f]{12})$/;
/** Identifiers joined by dots: code (`user.pwd_v2`, `settings.db_pass_v2`), not a passphrase. */
const CODE_PATH = /^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$/;
/** What the checks read where a marker stands in a value (./index.ts): random, as the token it hid. */
export const STAND_IN = "Zq8Lm3Xv7Rt2Kw9Np4Hs";
/**
 * Code, and no value: identifiers joined by dots none of which holds a vendor's token, whole or up to
 * a `_` (`cfg.AKIA…_v2`), nor a marker's stand-in (a credential's name says its value is the secret).
 */
const codePath = (value: string) => CODE_PATH.test(value) && !value.includes(STAND_IN) && !holdsToken(value);

/** Whether a token starts `value`, or after a `.` or `_` in it, read to its end or to the next `.` or `_` (no split: a check per prose match). */
function holdsToken(value: string): boolean {
  for (let p = 0; ; ) {
    const q = nextJoin(value, p);
    if (token(p ? value.slice(p) : value) || (q > p && q < value.length && token(value.slice(p, q)))) return true;
    if (q === value.length) return false;
    p = q + 1;
  }
}

/** Where the next `.` or `_` from `p` is, or the value's end. */
function nextJoin(value: string, p: number): number {
  while (p < value.length && value.charCodeAt(p) !== 46 && value.charCodeAt(p) !== 95) p++;
  return p;
}

/**
 * Whether a value is the credential its name gives, whatever its entropy (./more.ts sets it when it
 * loads: the rule and its word lists stay off the eager path; until then only random values count).
 */
export const hooks = {
  named: (_value: string, _before: string, _after: string, _match: string, _group: number, _at?: number) => false,
  /** Whether a value is base64 of plain text with no credential in it (a certificate, a note): ./more.ts decodes and checks. */
  plain: (_value: string) => false,
  /** The fixed starts vendors document for their tokens: all a marker may keep (./more.ts). */
  prefix: undefined as RegExp | undefined,
};

/**
 * What parts a command line's arguments: spaces, tabs, a `\` continuing the line. Never a bare line
 * break: a command's flags stand on its line.
 */
export const GAP = String.raw`(?:[ \t]|\\\r?\n)`;
/** The flag's value when it follows after spaces. */
const SPACED = `${GAP}{1,4}`;

/**
 * A value in quotes runs to its closing quote, whatever it holds (`-p'{5j…}O>C'`); one without quotes
 * (or whose quote does not close on its line) stops at a space or a quote, or at a shell's `;`, `&` or
 * `|` where a command with a flag follows (`mysql -pA;docker login -u ci -p B` is two commands, two
 * passwords; `-pT0p&S3cret`, as `ps` shows it, is one), and is no next flag (`mongosh -u admin -p
 * --authenticationDatabase admin` asks for it). Groups: single-quoted, double-quoted (escaped quotes too), bare.
 */
const NEXT_COMMAND = String.raw`[;&|](?=[;&|]?[ \t]{0,4}[a-z][\w.-]{0,30}(?:[ \t]{1,4}[a-z][\w.-]{0,30}){0,2}[ \t]{1,4}-[A-Za-z])`;
export const QUOTED = String.raw`(?:'([^'\n]{4,128})'|\\?"([^"\\\n]{4,128})\\?"|["'\`]?((?!${NEXT_COMMAND})[^\s"'\`-](?:(?!${NEXT_COMMAND})[^\s"'\`]){3,127}))`;

/**
 * The value after `-flag` (then `between`) on a command line of one of `programs`, within its first
 * eight arguments of up to 256 characters (an OCI registry user is `namespace/domain/e-mail`); the
 * arguments before it may not start with the flag, so that each is tried once (linear).
 */
function passwordFlag(programs: string, flag: string, between: string): Shape {
  return {
    pattern: new RegExp(
      String.raw`\b(?:${programs})[\w-]{0,10}(?:${GAP}{1,4}(?:[^\s-]|-[^\s${flag}])(?=(\S{0,255}))\1){0,8}${GAP}{1,4}-${flag}${between}${QUOTED}`,
      "g",
    ),
    group: [2, 3, 4],
    needs: new RegExp(programs),
    // and the flag: where the text lacks it, a program's every mention would read its eight arguments for nothing
    gate: (text) => text.includes(`-${flag}`),
    far: true, // eight arguments, each after a continued line perhaps
    long: true, // eight arguments of up to 256 characters: ~2,250
    valid: (v) => !standsFor(v), // -p "$REGISTRY_TOKEN" names a secret, it is not one
  };
}

/**
 * Key ids that name the credential passed beside them: Twilio API key and account SIDs, Razorpay key
 * ids (each in its vendor's documented format).
 */
const KEY_ID = String.raw`(?:SK|AC)[\da-f]{32}|rzp_(?:live|test)_[A-Za-z\d]{14}`;

/**
 * `//user:password@` and `//token@` in a URL (the opening of a group the URL shape closes). The password
 * runs to the first `@` before a host (a name or `[` an address, a port, then no name character), `/`,
 * `#`, `?` and `@` included, as base64 from `openssl rand` holds them unencoded; never from a port before
 * a path (`//example.com:8080/users/a@b.org`), nor across a `//` (the next URL: adversarial text gives one every
 * few characters, each read to 256 characters without it).
 */
const USERINFO = String.raw`\/\/(?:[^\s:/?#@"'<>]{0,128}:((?!\d{1,5}(?:[/?#]|$))(?:(?!\/\/)[^\s"'<>]){1,256}?)@(?=\[|[\w.-]{1,253}(?::\d{1,5})?(?![\w.:-]))|([^\s:/?#@"'<>]{20,128})@`;

/**
 * A bare token after a name, a flag or a field (the generic shape below). Its value is a whole run of
 * 20 to 120 token characters (what comes before it, `=`, `:`, a space, a quote, is none), at most 73
 * characters after the match starts: a name of 60, quotes, spaces and the operator.
 */
const ASSIGNED = /(?<![\w.-])(?:--[\w-]{1,40}(?:=|\s{1,4})|(?=([\w.-]{1,60}))\1\\?["']?\s{0,4}(?:=|:(?=\s|\\?["']))\s{0,4})\\?["']?([\w+~-]{20,120}={0,2})(?![\w+=~./-])/g;
/** The same, tried only at the 74 starts before a value's run (sticky, the shortest prefix first: the leftmost match there). */
const ASSIGNED_BEFORE = new RegExp(`[^]{0,73}?(?:${ASSIGNED.source})`, "y");

/**
 * Whether an operator stands where a match of ASSIGNED with its value at `v` has one: `=` or `:` up to 7
 * characters before the value (quotes, spaces, a backslash between), or a flag's `--` 4 to 48 before it.
 */
function assigns(text: string, v: number): boolean {
  const codes = codesOf(text);
  for (let i = v - 1, dashes = 0; i >= 0 && i >= v - 48; i--) {
    const c = codes[i];
    if (i >= v - 7 && (c === 61 || c === 58)) return true;
    dashes = c === 45 ? dashes + 1 : 0;
    if (dashes > 1 && i <= v - 4) return true;
  }
  return false;
}

/**
 * The next match of ASSIGNED from `pattern.lastIndex`, as its `exec` finds it, read only before the
 * runs a value may be: the regex engine tries every start of every word (a fifth of the redaction of
 * ordinary text), a run of 20 is found by hand reading a twentieth of the characters. A run with no
 * operator before it is no match's value (JSON arguments hold many: paths, ids), and is passed over.
 */
function nearValue(pattern: RegExp, text: string): RegExpExecArray | null {
  for (let from = pattern.lastIndex, look = from; ; ) {
    const run = runFrom(text, look, 20, 120, VALUE_RUN);
    if (run < 0) return (pattern.lastIndex = 0), null;
    look = run + 1;
    if (!assigns(text, run)) continue; // the next match's value is a later run: it starts 73 before that at most
    ASSIGNED_BEFORE.lastIndex = Math.max(from, run - 73);
    if (ASSIGNED_BEFORE.test(text)) {
      pattern.lastIndex = Math.max(from, run - 73);
      return pattern.exec(text); // the match found above: the leftmost from there
    }
    from = look;
  }
}

/**
 * How far into a vendor token its 13 word characters or hyphens in a row start at most; a token without
 * them holds 20 of base64's from its start (test/redact-equivalence.test.ts reads both from VENDOR).
 */
export const VENDOR_REACH = 30;
/**
 * The first two characters of every vendor token, each first one with the seconds it takes
 * (test/redact-equivalence.test.ts reads them from VENDOR).
 */
export const VENDOR_PAIRS = "AKSBC3ITP EA GR LT SKG ZX .a 00 1/ ac ap ci cm da dpt fm ghil hfv np oy pa rk sk.hlnqd v1 xoa ya";
/** The same by `codesOf`'s codes, the first's shifted by 8: at a word start whose two are none (most), the alternation is not tried. */
const PAIRS = new Uint8Array(1 << 16);
for (const p of VENDOR_PAIRS.split(" ")) for (const c of p.slice(1)) PAIRS[(p.charCodeAt(0) << 8) | c.charCodeAt(0)] = 1;

/** The windows `nearToken` found last: in which text, each looked for from where. */
const near = { text: "", w: -1, wFrom: 0, b: -1, bFrom: 0 };
/**
 * The next match of the vendor tokens' shape from `pattern.lastIndex`, as its `exec` finds it: a word
 * start (`\b`) where 24 word characters or hyphens follow, or where a vendor token starts, which is
 * only near a run of 13 or one of base64's (VENDOR_REACH). Runs are found by hand; the alternation of
 * ~60 formats is tried only at such starts, not at every word's (a third of ordinary text's redaction).
 */
function nearToken(pattern: RegExp, text: string): RegExpExecArray | null {
  const c = codesOf(text);
  const n = text.length;
  // the next windows of 13 word characters (w) and of 20 of base64's (b): a stretch from where a token
  // may start near one to the last window of its run is read, word start by word start. A window the
  // last call on this text found, looking from no later than here, is the next still: `apply` calls
  // once a match, and looking again from each match to the text's end (where none is) was quadratic
  const p0 = pattern.lastIndex;
  const same = text === near.text;
  let w = same && near.wFrom <= p0 ? near.w : -1;
  let b = same && near.bFrom <= p0 ? near.b : -1;
  near.text = text;
  for (let p = p0; p < n; ) {
    if (w < p) (w = near.w = windowFrom(c, n, p, 13, WORD)), (near.wFrom = p);
    if (b < p) (b = near.b = windowFrom(c, n, p, 20, BASE64)), (near.bFrom = p);
    const byWord = w < n && w - VENDOR_REACH <= b;
    if (!byWord && b === n) break;
    const last = byWord ? lastWindow(c, w, 13, WORD) : Math.min(lastWindow(c, b, 20, BASE64), w < n ? w - VENDOR_REACH - 1 : n);
    for (let q = byWord ? Math.max(p, w - VENDOR_REACH) : b; q <= last; q++) {
      if (q > 0 && WORD_CHAR[c[q - 1]] === WORD_CHAR[c[q]]) continue; // no word start
      if ((byWord && q >= w && q <= last - 11) || (PAIRS[(c[q] << 8) | c[q + 1]] && ((VENDOR_AT.lastIndex = q), VENDOR_AT.test(text)))) {
        pattern.lastIndex = q;
        return pattern.exec(text); // the match at `q`: none starts before
      }
    }
    p = last + 1;
  }
  return (pattern.lastIndex = 0), null;
}
/** The last window of `min` characters of `run` in the run of the one at `first`. */
function lastWindow(c: Uint8Array, first: number, min: number, run: Uint8Array): number {
  let stop = first + min;
  while (run[c[stop]]) stop++; // (the 0 after the text ends it)
  return stop - min;
}

export const SHAPES: Shape[] = [
  {
    // Credentials passed to a client by position: the string after a key id in an argument list
    // (Twilio's Client("SK…", "<secret>", "AC…"), razorpay.Client(auth=("rzp_test_…", "<secret>"))), and
    // the second string of an auth pair (requests' auth=("user", "<password>"), HTTPBasicAuth(…)) or of
    // a login call (smtplib's and ftplib's .login(user, password), mongosh's db.auth(user, password)).
    // Before the vendor tokens, which mask the key id it goes by.
    pattern: new RegExp(
      String.raw`(?:(?:\bauth\s{0,4}=\s{0,4}[([]|(?:Basic|Digest)Auth\s{0,4}\(|\.(?:auth(?:enticate)?|login)\s{0,4}\()\s{0,4}(["'])[^"'\n]{1,128}\1|(["'])(?:${KEY_ID})\2)\s{0,4},\s{0,4}(["'])([^"'\s\\]{8,256})\3`,
      "g",
    ),
    group: [4],
    needs: /auth|login|"sk|'sk|"ac|'ac|"rzp_|'rzp_/i, // (words to the triggers of ./triggers.ts)
    far: true, // arguments on lines of their own, the first up to 128 characters
    valid: (v) => looksRandom(v) || passwordLike(v),
  },
  // Starts only where a run of token characters starts: inside "-eyJ-eyJ…" it would restart at
  // every eyJ and rescan the run to its end (quadratic).
  { pattern: /(?<![\w-])eyJ[\w-]{8}[\w-]*\.eyJ[\w-]{8}[\w-]*(?:\.[\w-]{0,600})?/g, needs: /\.eyJ/, valid: jwtSecret },
  // Azure AD client secrets, before the runs of token characters below: one would take the part after `~`
  { pattern: /\b[\w~.]{3}\dQ~[\w~.-]{31,34}/g, needs: /Q~/ },
  // Vendor tokens, and long runs of token characters checked whole: one scan for both.
  // A vendor's own format is a token wherever it stands; the generic shape not under a name that
  // says it is an id, a hash, a nonce or a record's key (`request_id=`, a JWK's `"x": "…"`). Every
  // vendor token holds 13 word characters or hyphens in a row, or 20 of base64's (checked by
  // test/redact-equivalence.test.ts): prose has neither, and skips the scan.
  {
    pattern: new RegExp(`\\b(?:(?=${VENDOR_START})(?:${VENDOR})|[\\w-]{24}[\\w-]*)`, "g"),
    find: nearToken, // (a text without a run near which a token starts is left at once)
    valid: (v, before) => token(v) || (prefixedToken(v) && !identifier(v) && !idNamed(before) && !csrfNamed(before.slice(-40), v, v)),
  },
  // Vendors whose token starts with a character class: each waits for its literal
  { pattern: /\b[\da-f]{32}-us\d{1,2}\b/g, needs: /-us\d/ }, // Mailchimp
  // Telegram bots, also glued behind `/bot` in the paths Telegram documents (`api.telegram.org/bot<token>/getMe`, `/file/bot<token>/…`)
  { pattern: /(?:\b|(?<=\/bot))\d{8,10}:AA[\w-]{33}(?![\w-])/g, needs: /:AA/ },
  // Facebook app tokens (the prefilter is `\d\|\w` by digit: words to the triggers of ./triggers.ts)
  { pattern: /\b\d{15,16}\|[\w-]{20}[\w-]*/g, needs: /0\|\w|1\|\w|2\|\w|3\|\w|4\|\w|5\|\w|6\|\w|7\|\w|8\|\w|9\|\w/ },
  // Discord bots: the base64 of a user id (which may start two characters into a run), a timestamp, an HMAC
  { pattern: /(?<![A-Za-z\d]{3})[MNO][A-Za-z\d]{23,25}\.[\w-]{6}\.[\w-]{27}[\w-]*/g, gate: (t) => hasRun(t, 27, WORD) },
  // Webhook URLs carry their secret in the path, as each vendor documents it: Slack, Zapier
  // (`/hooks/catch/<account>/<hook>/`), Make (`hook.<zone>.make.com/<id>`), IFTTT (`/trigger/<event>/with/key/<key>`),
  // Discord, Microsoft Teams; Mattermost's `/hooks/<id>` only with its id's shape (26 lower-case letters
  // and digits), never a `src/hooks/…` path
  {
    pattern: /(?:hooks\.(?:slack|zapier)\.com\/(?:hooks\/)?\w{1,12}|hook\.(?:\w{2,4}\.)?(?:make|integromat)\.com|maker\.ifttt\.com\/(?:trigger\/[\w-]{1,64}\/(?:json\/)?with\/key|use)|\/api\/webhooks\/\d{6,20}|\/webhookb2)\/([\w@/-]{12}[\w@/-]*)|\/hooks\/(?=[a-z]{0,25}\d)([a-z\d]{26})(?![\w-]|\.\w)/g,
    group: [1, 2],
    needs: /hook|ifttt/,
  },
  {
    // Authorization headers with or without a scheme; Bearer tokens anywhere
    pattern: /\b(?:Authorization\\?["']?\s{0,4}[:=]\s{0,4}\\?["']?\s{0,4}(?:[A-Za-z][\w-]{1,19}\s{1,4})?|Bearer\s{1,4})([\w.~+/=:-]{8}[\w.~+/=:-]*)/gi,
    group: [1],
    needs: /auth|bearer/i,
    breaks: true,
    valid: encoded,
  },
  // Programs that take a password after a short flag, as each documents it, within their first arguments
  passwordFlag("mysql|mariadb", "p", ""), // glued: a bare -p asks for it
  passwordFlag("mongo(?:sh)?|rabbitmqadmin|cqlsh", "p", SPACED),
  passwordFlag("docker login|podman login|nerdctl login|buildah login|skopeo login|oras login|helm registry login|az login", "p", SPACED),
  passwordFlag("sshpass", "p", "[ \\t]{0,4}"),
  passwordFlag("redis-cli", "a", SPACED),
  passwordFlag("ssh-keygen", "N", SPACED), // the new passphrase
  passwordFlag("ssh-keygen", "P", SPACED), // the old one
  passwordFlag("openssl", "k", SPACED),
  passwordFlag("ldap(?:search|add|modify|delete|whoami|passwd|compare)", "w", SPACED),
  passwordFlag("sqlcmd|bcp|mosquitto_(?:pub|sub)|zip|unzip", "P", SPACED),
  passwordFlag("smbclient|rpcclient|smbcacls|smbget", "U", String.raw`[ \t]{0,4}["']?[^\s%"']{1,64}%`), // -U user%password
  {
    // A password after a user on any command line, `-u <user> -p <password>` (SAP's hdbsql, many
    // tools) or `-U … -P …` (ipmitool), where it looks like one: random, or as policies ask for one.
    // Not a port (`psql -U app -p 5433`, `docker run -u 1000 -p 127.0.0.1:80:80/tcp`), a file
    // (ApacheBench's `-u put.json -p post.json`) or a prompt (sudo's -p), nor after mysql (in the same
    // command), whose spaced -p asks for the password and leaves the next argument to name the database
    pattern: new RegExp(String.raw`(?:^|[ \t])-[uU]${SPACED}["']?[^\s"'-][^\s"']{0,47}["']?${SPACED}-[pP]${SPACED}${QUOTED}`, "g"),
    group: [1, 2, 3],
    needs: /-u[ \t]/i,
    breaks: true, // continued lines before the password: 91 characters in at most
    valid: (v, before) => (looksRandom(v) || passwordLike(v)) && !/(?:^|:)\d{1,5}(?:\/[a-z]{3,4})?$|^[\w-]+\.[a-z]{2,5}$/.test(v) && !/\bm(?:ysql|ariadb)[^\n;&|()]*$/.test(before), // (its own command: not one before a `;`)
  },
  {
    // A credential encoded for a Basic Authorization header on the command line: what `echo` or
    // `printf` pipes into `base64` (`echo -n 'id:secret' | base64`, Azure DevOps' `printf ':%s' '<PAT>'`),
    // after the user's colon if there is one
    pattern: /\b(?:echo|printf)[ \t][^|\n]{0,64}?(["']?)(?:[^\s"':|]{0,128}:)?([^\s"'|]{6,256})\1\s{0,4}\|\s{0,4}base64\b/g,
    group: [2],
    needs: /base64/,
    far: true, // `| base64` on the next line, 450 characters after the echo
    valid: (v) => !standsFor(v), // echo -n ":$PAT" | base64 names it
  },
  {
    // curl -u user:password (not docker's -u 1000:1000); the user may be an OAuth client id (PayPal's
    // are 80 characters), so users and passwords have the bounds of a URL's
    pattern: /(?:^|\s)(?:-u|--user)\s{1,4}["']?[^\s"':]{1,128}["']?:["']?([^\s"'@]{4,256})/g,
    group: [1],
    needs: /-u|--user/,
    breaks: true,
    valid: (v) => /\D/.test(v),
  },
  {
    // Credentials in URLs and connection strings (postgres, mysql, mongodb+srv, redis, amqp, …):
    // the password of user:password@, a token standing alone as the user, an .npmrc auth token
    pattern: new RegExp(`${USERINFO}|[a-z\\d.-]{1,253}\\.[a-z]{2}[a-z]*(?::\\d{1,5})?\\/(?=([\\w./-]{0,200}))\\3:_auth(?:Token)?\\s{0,4}=\\s{0,4}["']?([\\w+/=-]{8}[\\w+/=-]*))`, "gi"),
    // without `:_auth` the .npmrc form cannot match: skipping it skips a 200-character look at every `//`
    lite: [/:_auth/i, new RegExp(`${USERINFO})`, "gi")],
    needs: /\/\/|:_auth/i,
    far: true, // a host and a path of 450 characters before `:_authToken` and a line break
    group: [1, 2, 4],
    random: [2],
    valid: (v) => !standsFor(v), // postgres://USER:PASSWORD@HOST, ${DB_PASSWORD}, %PGPASS%: documentation, not a password
  },
  {
    // Oracle connect strings: user/password@host or @//host (sqlplus, jdbc:oracle:thin:)
    pattern: /(?<![\w/.-])[A-Za-z]\w{0,29}\/([^\s/@"']{4,128})@(?=\/\/|[\w.-]{1,253}[:/])/g,
    group: [1],
    needs: /sqlplus|oracle|:1521/i,
    context: true, // anywhere in the text
    holds: "@",
    valid: (v) => /\d/.test(v) && /[A-Za-z]/.test(v),
  },
  {
    // Secret URL, query and connection-string parameters
    pattern: /[?&;](?:passw(?:or)?d|pwd)=([^&#;\s"'<>]{3}[^&#;\s"'<>]*)|[?&;][\w.-]{0,24}?(?:token|secret|key|sig(?:nature)?|auth|credential)=([^&#;\s"'<>]{8}[^&#;\s"'<>]*)/gi,
    group: [1, 2],
    random: [2],
    needs: /password=|passwd=|pwd=|token=|secret=|key=|sig=|signature=|auth=|credential=/i,
  },
  {
    // One pass for three forms, so the secret names are searched once: an assignment to a secret
    // name (env files, shell exports, Makefiles, JSON/YAML fields, XML, form bodies); a secret name
    // as an argument or a flag (getenv("API_TOKEN", "…"), --password hunter2x9); an assignment to a
    // bare "key", whose value must look like a credential.
    pattern: new RegExp(
      eitherCase(`${SECRET_NAME}${SECRET_TAIL}(?:${ASSIGN_OP}${QUOTED_VALUE}|(?:["']\\s{0,4},\\s{0,4}["']|\\s{1,4}(?:(?:is|was)\\s{1,4})?["'\`]?)(${IN_QUOTES}|(?!-)${NAMED_VALUE}))` + // (never the next flag, but a value in quotes)
        `|key(?:${ASSIGN}|\\s{1,4}["']?)(?=[\\w+/=-]{0,40}\\d)([\\w+/=-]{16,400})(?![\\w.])`),
      "g",
    ),
    group: [1, 2, 3, 4, 5],
    random: [5],
    labels: [3, 4],
    reread: [3, 4, 5],
    needs: /secret|pass|pw|token|key|credential|auth|login|cookie/i, // a word of every name above
    // a value a credential's name gives (see `namedValue`) is the secret whatever its entropy; under
    // the names that mean other things too (a login, an auth scheme, a cookie, a bare `token`, which
    // is a logprob's too) or after a bare space it must look random, or be a password as policies ask
    // for one; never a call (getTokenizer(model)), nor after "public" or "csrf", nor a record's key. (What
    // names a value is read first: adversarial text gives a name every few characters whose value it turns down)
    valid: (v, before, after, match, group) => {
      if (after === "(") return false;
      const n = valueAt(match, v); // (where the value stands in the match: both checks of its name read it)
      return (
        (group > 4 || hooks.named(v, before, after, match, group, n) || looksRandom(v) || (group < 4 && passwordLike(v) && (group < 3 ? !/^(?:login|auth|cookie)/i.test(match) : passwordNamed(before, match) && !codePath(v)))) &&
        !(notAfter(before) && (!/[cx]srf[_-]?$/i.test(before) || /^token/i.test(match))) && // (after `csrf_`, a token's name only: `CSRF_SECRET_KEY` is a secret's)
        !csrfCookie(v) && // `Cookie: csrftoken=…`
        !idNamed(before, match, n) &&
        !(group > 4 && (identifier(v) || (HEX_ID.test(v) && !nameCode(before.charCodeAt(before.length - 1))))) // React's key="<hex>", `"key": "<uuid>"`, a cache key: a record's key
      );
    },
    breaks: true,
  },
  {
    // A bare token where a credential stands, whatever its name: an assignment, a field, a header, a
    // flag. Only a random-looking value passes (see `bareToken`).
    // (`name:value` unspaced is a label, go.sum's h1:; public keys and tokens are public)
    // (the name is taken whole, `(?=(…))\1`, never given back a character at a time: only a whole name
    // can end where a separator starts)
    pattern: ASSIGNED,
    group: [2],
    find: nearValue, // (a text without a value's run is left at once)
    valid: (v, before, _, match) => {
      const n = valueAt(match, v);
      return bareToken(v) && !/public|[cx]srf|site-?key/i.test(match.slice(0, n)) && !idNamed(before, match, n); // (by its name: a random value may hold the word)
    },
    breaks: true,
  },
  {
    // A PuTTY key file's private part: `Private-Lines: N`, then N lines of base64 (PuTTY's documented
    // format), with real or escaped line breaks
    pattern: /Private-Lines:\s{0,4}\d{1,3}(?:\r?\n|\\r\\n|\\n)([A-Za-z\d+/=]{1,100}(?=\r?\n|\\[rn]|$)(?:(?:\r?\n|\\r\\n|\\n)[A-Za-z\d+/=]{1,100}(?=\r?\n|\\[rn]|$)){0,63})/g,
    group: [1],
    needs: /Private-Lines/,
    far: true, // 64 lines
  },
];

/** Kubernetes Secret manifests: the values of their data entries, base64 (checked per text). */
export const KUBERNETES_DATA: Shape = {
  pattern: /(?:\\n|\n)(?:\\t|\t| ){1,12}[\w.-]{1,64}:\s{0,4}(?:[|>][-+]?(?:\\n|\n)(?:\\t|\t| ){1,16})?["']?([A-Za-z\d+/]{6}[A-Za-z\d+/]*={0,2})(?=["']?(?:\\n|\n|$))/g,
  group: [1],
  needs: /kind["']?:\s{0,4}["']?secret\b/i,
  valid: encoded,
};

/**
 * Placeholders and examples, not secrets: `${TOKEN}`, `$TOKEN`, `$(cmd)`, `%TOKEN%`, `%s`, `%(name)s`,
 * `<key>`, `{{ token }}`, `{token}`, `xxxx`, `EXAMPLE`, `your-key`. Not any value that starts with `%`
 * or `{`: `%40…` is a URL-encoded password, `{5j…}O>C` a generated one.
 */
const PLACEHOLDER = /^(?:\$[{(A-Za-z_]|%[A-Za-z_(]|<|\{[{A-Za-z_])|x{4}|example|fake|dummy|changeme|placeholder|your[_-]|redacted|^\*{3}/i;

/**
 * A value that stands for a secret where any value is a credential (a password in a URL or after a
 * flag): a placeholder or a reference (`${VAR}`, `$VAR`, `%VAR%`, `{{ var }}`, `<password>`), or a
 * word in capitals as documentation writes one (`postgres://USER:PASSWORD@HOST`, `-p TOKEN`), or the word
 * itself (`user:password@`).
 */
export const standsFor = (value: string) => PLACEHOLDER.test(value) || documented(value);
/** How documentation writes a value it does not give: a word in capitals (`PASSWORD`, `API_KEY`), or the name itself. */
const documented = (value: string) => {
  const c = value.charCodeAt(0);
  // (each pattern only where its first letter stands: this runs for every value a credential's name gives)
  return (c >= 65 && c <= 90 && /^[A-Z]+(?:_[A-Z]+)*$/.test(value)) || (((c | 32) === 112 || (c | 32) === 115) && /^(?:password|passwd|pass|pwd|secret)$/i.test(value));
};
export const VERSION = /\d{1,9}\.\d{1,9}\.\d/;
/** A URL (its credentials have their own shape) or a file path. */
const LOCATION = /^[a-z][\w+.-]{1,20}:\/\/|^(?:~|\.{1,2})?\/[\w.-]*\/[\w./-]*$/i;
/**
 * A location a credential's name may stand for (`password_file: /run/secrets/db`): one without a run
 * of 20 letters and digits, which no directory's name is and a key with a slash (base64's `/`) is; nor,
 * where it holds only base64's characters (no dot, dash or underscore, which a file's name has), a piece
 * of 12 letters or more whose cases mix as random letters do (four capitals after its first letter,
 * four small letters: `eVZTZAxfRtfnAZYUKN`, not `PostgreSQL`, `SSLCertificates`, `GraphQLSchema`), a
 * digit in a short piece or not (`/O6hG/rCZyTKVvyrJGBhMk/…`), nor five turns from a small letter to a
 * capital in all, as random letters make in short pieces too (`/XrBiHeOOct/54Wj/oKJQb/qlgMuwgd/…`; a path's
 * camelCase names make a few: `/Users/JohnDoe/MyProjects/NewApp`).
 */
const reference = (value: string): boolean =>
  LOCATION.test(value) &&
  !/[A-Za-z\d]{20}/.test(value) &&
  !(/^[A-Za-z\d+/]+$/.test(value) && (value.split("/").some((piece) => /^(?=[A-Za-z]{12})(?=.(?:[^A-Z]*[A-Z]){4})(?=(?:[^a-z]*[a-z]){4})/.test(piece)) || (value.match(/[a-z][A-Z]/g)?.length ?? 0) >= 5));

/**
 * Random-looking: long enough, not a placeholder, a version or a location (`reference`: a key of base64
 * that starts with its `/` is none), and a run that mixes letters and digits (names, words and code
 * have none: getTokenizer, settings.API_TOKEN).
 */
export function looksRandom(value: string): boolean {
  // (by char code first: a version holds a dot, a location a slash)
  return value.length >= 8 && mixedRun(value, 5) && !(value.includes(".") && VERSION.test(value)) && !(value.includes("/") && reference(value)) && !PLACEHOLDER.test(value);
}

/** Images and documents in base64: PNG, JPEG, GIF, WebP, PDF, SVG. */
const FILE_MAGIC = /^(?:iVBOR|\/9j\/|R0lGOD|UklGR|JVBER|PHN2Z)/;

/** Letter counts and the letters in order of first sight, reused: entropy runs for every candidate, and a typed array is slow to allocate. */
const counts = new Uint16Array(128);
const seen = new Uint8Array(128);

let nLog2n: Float64Array | undefined;
/** n·log2(n), from a table for the counts a short value has (filled on first use). */
const nLog = (n: number) => (n < 256 ? (nLog2n ??= Float64Array.from({ length: 256 }, (_, k) => (k ? k * Math.log2(k) : 0)))[n] : n * Math.log2(n));

/**
 * Bits per character of `value`'s own letter frequencies (a bare token's letters are ASCII):
 * log2(L) − Σ c·log2(c) / L, with no logarithm per letter (it runs for every candidate value).
 */
function entropy(value: string): number {
  let letters = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i) & 127;
    if (!counts[c]++) seen[letters++] = c;
  }
  let sum = 0;
  for (let j = 0; j < letters; j++) {
    sum += nLog(counts[seen[j]]);
    counts[seen[j]] = 0;
  }
  return Math.log2(value.length) - sum / value.length;
}

/**
 * A token with no name or prefix to go by: lower case, upper case and digits mixed, two digits apart
 * at least (an identifier has one at its end), and high entropy. Git SHAs, UUIDs and hex hashes have
 * one case; lockfile hashes and ids carry their prefix; paths and versions have slashes and dots.
 */
export function bareToken(value: string): boolean {
  return casesAndDigits(value) && looksRandom(value) && !NOT_SECRET.test(value) && !FILE_MAGIC.test(value) && entropy(value) > 3.6 && !identifier(value) && !hooks.plain(value);
}

/** A segment of an identifier, from `lastIndex` to a `_`, `-` or the end: a word (`None`, `KeyMeshing`), a number, a word and its number (`Gost28147`, `x64`), a lower-case hash. */
const SEGMENT = /(?:[A-Z]?[a-z]+|[A-Z]+|\d+|(?:[A-Z][a-z]+)+\d*|[a-z]+\d+|[\da-f]+)(?![^_-])/y;
/** A segment of 3 letters or more. */
const LETTERS = /[A-Za-z]{3,}(?![^_-])/y;
/**
 * Four or more words joined by `_` or `-`, two of them words of letters: a constant (`SN_id_Gost28147_89_None_KeyMeshing`), an OID's
 * name, a cache key (`node-cache-Linux-x64-npm-<hash>`). A token's random segments are no words. Read in
 * place, not split (it runs for every candidate token).
 */
export function identifier(value: string): boolean {
  let words = 0;
  let segments = 0;
  for (let start = 0, end = 0; end <= value.length; end++) {
    const c = value.charCodeAt(end);
    if (c !== 95 && c !== 45 && end < value.length) continue;
    segments++;
    if (end > start) {
      SEGMENT.lastIndex = LETTERS.lastIndex = start;
      if (!SEGMENT.test(value)) return false;
      if (LETTERS.test(value)) words++;
    }
    start = end + 1;
  }
  return segments >= 4 && words >= 2;
}

/** Lower case, upper case, and two digits with 1 to 40 other characters between them, in one pass (per candidate value). */
function casesAndDigits(value: string): boolean {
  let lower = false;
  let upper = false;
  let apart = false;
  let digit = -1;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 97 && c <= 122) lower = true;
    else if (c >= 65 && c <= 90) upper = true;
    else if (c >= 48 && c <= 57) {
      if (digit >= 0 && i - digit >= 2 && i - digit <= 41) apart = true;
      digit = i;
    }
  }
  return lower && upper && apart;
}

/**
 * Values that look random but are not secrets: ids of tool calls, messages, requests and lockfile
 * hashes; CSP nonces; the object ids vendors document (Stripe's `cus_`, `pi_`, `evt_`…, OpenAI's
 * `asst_`, `thread_`, `org-`…, GitHub's node ids `PR_kwDO…`); and keys vendors document as public:
 * Stripe's and Clerk's publishable `pk_live_`/`pk_test_`, Mapbox's public `pk.eyJ…`, PostHog's project
 * key `phc_`, Supabase's `sb_publishable_`; Cloudflare's `cf-ray` (16 hex digits and a data centre), Twilio's
 * resource SIDs (a message's `SM…`, a call's `CA…`: their key and account SIDs are SK and AC). Short id prefixes only before letters and digits to the
 * end: `run_ghp_…` is a token behind a word, `pi_…_secret_…` a Stripe client secret.
 */
export const NOT_SECRET =
  /^(?:(?:sha\d{1,3}|h1)[_-][A-Za-z\d+/]{16,}=*$|(?:call|toolu|srvtoolu|msg|req|resp|rs|fc|chatcmpl|fp|nonce|asst|thread|run|file|batch|org|proj|acct|ch|cs_(?:live|test)|cus|evt|in|pi|pm|price|prod|sub|phc|pk_(?:live|test))[_-][A-Za-z\d]+=*$|[A-Z]{1,4}_k[gw]D|pk\.eyJ|sb_publishable_|[\da-f]{16}-[A-Z]{3}$|(?:SM|MM|CA|RE|PN|MG|CH|IS)[\da-f]{32}$)/;

/**
 * The checks a match may run, each first run on a short value (bytecode, then compiled again): compiled
 * with a catalogue's scan, once, where a lookup at each use would cost adversarial text, which matches
 * every few characters, a few per cent.
 */
export const compileChecks = () => [NOT_SECRET, VENDOR_AT, ASSIGNED_BEFORE, SECRET_WORD].forEach(compiled);

/** What ./more.ts (loaded lazily, so it imports nothing of this file) builds its rules from: handed over in the kit. */
export const PARTS = { hooks, GAP, QUOTED, SECRET_TAIL, SECRET_WORD, VERSION, reference, codePath, mixedRun, nameCode, standsFor, documented, eitherCase, compiled, valueAt, wordShape, wordShapes };
export type Parts = typeof PARTS;
