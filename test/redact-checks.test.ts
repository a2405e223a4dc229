// The redaction engine's per-match checks, rewritten for speed (issue 29: by char code, read in place,
// cheap rejects first, no rescan after a plain mask), decide exactly as they did: each against its
// former self (test/support/redact-oracle.ts) on the candidates the shapes find in generated and real
// texts, and redaction through the trigger scan against the catalogue applied shape by shape.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { redactor as core } from "../src/redact/index.js";
import { completed } from "../src/redact/more.js";
import { PARTS, type Shape, idNamed, identifier, notAfter } from "../src/redact/shapes.js";
import { SHAPE_EXAMPLES, adversarialSeeds } from "./support/adversarial.js";
import * as old from "./support/redact-oracle.js";
import { secretNameValid } from "./support/secret-name-check-reference.js";
import { negatives, positives } from "./support/secrets.js";

const kit = completed(core).streamKit;
const known = completed(core, ["Tr0ub4dor&3", "whsec_Zx81fQ2mN7pLk3vT9wRy4uHs"]).streamKit;
const secretName = kit.shapes.find((s) => s.needs?.source === "secret|pass|pw|token|key|credential|auth|login|cookie")!;
const prose = kit.shapes.find((s) => s.pattern.source.includes("pass(?:word|phrase|wd)"))!;

/** What `apply` hands a shape's check for each match: value, 64 characters before, the one after, the match, its group. */
function candidates(shape: Shape, text: string): [string, string, string, string, number][] {
  const out: [string, string, string, string, number][] = [];
  const pattern = new RegExp(shape.pattern.source, shape.pattern.flags);
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
    const group = (shape.group ?? []).find((g) => m![g] !== undefined) ?? 0;
    out.push([group ? m[group] : m[0], text.slice(Math.max(0, m.index - 64), m.index), text[m.index + m[0].length] ?? "", m[0], group]);
    if (!m[0]) pattern.lastIndex++;
  }
  return out;
}

const NAMES = ["DB_PASSWORD", "password", "Password", "passphrase", "pass", "pwd", "_pw", "-pw", "dbPassword", "bypass", "bypASS", "ApASSWORD", "aPassword", "xtoken", "_token", "token", "TOKEN", "GITHUB_TOKEN", "tokeN", "api_key", "API_KEY", "apiKey", "secret", "client_secret", "credentials", "auth", "login", "cookie", "trace_id", "x", "kid", "sha256", "cache_key", "basE", "passphrasE", "public_key", "csrf_token", "not_secret", "_auth"];
const OPS = ["=", ": ", ":", " = ", "=>", '": "', '\\"', "'", " is ", " was ", " ", ", ", '", "', " --", "\n", "  ", "=\\u0041", " for the box is ", ": '", "`"];
const VALUES = ["coral", "Hunter2Pass9", "H.the", "$VAR", "${X}", "string", "None", "AKIAIOSFODNN7EXAMPLE", "sk_live_xxxxxxxx", "a/b/c", "1.2.3", "env.DB_PASSWORD", "hashedPassword", "letmein", "too", "a,b", "aaaa", "…", "[REDACTED]", "x5t", "Zx81fQ2mN7pLk3vT9wRy", "Summer2024!", "my-fake-key", "12345", "hunter2.", "currently", "Get-Secret", "correct horse battery staple", "rzp_live_YOBO3lwmy6QXaS", "SN_id_Gost28147_89_None_KeyMeshing", "node-cache-Linux-x64-npm-abc", "a_b_c_d", "-x-", "XXXX", "v_-XXXX", "EXAMPLEKEY"];
const piece = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(fc.constantFrom(...NAMES), fc.constantFrom(...OPS), fc.constantFrom(...VALUES)).map((t) => t.join("")) },
  { weight: 2, arbitrary: fc.constantFrom(...NAMES, ...OPS, ...VALUES) },
  { weight: 1, arbitrary: fc.constantFrom(...adversarialSeeds()) },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
  { weight: 1, arbitrary: fc.constantFrom(" ", "\n", "-", "_", ".", ",", ";", ")", '"', "'", "\\", "p", "P") },
);
const texts = fc.array(piece, { maxLength: 16 }).map((p) => p.join(""));
/** Real texts: the corpus lines, the shapes' examples and the adversarial seeds. */
const REAL = [...positives().map((p) => p.line), ...negatives().map((n) => n.line), ...SHAPE_EXAMPLES, ...adversarialSeeds()];

/** Every check against its former self on the candidates of `text`. */
function sameChecks(text: string): void {
  for (const [value, before, after, match, group] of candidates(secretName, text)) {
    expect(PARTS.hooks.named(value, before, after, match, group), JSON.stringify([value, before, match])).toBe(old.namedValue(value, before, after, match, group));
    expect(notAfter(before)).toBe(old.NOT_AFTER.test(before));
    const n = match.lastIndexOf(value);
    expect(idNamed(before, match, n)).toBe(old.idNamed(before + match.slice(0, n)));
    // (what names a value read first: the same verdict as read last)
    expect(secretName.valid!(value, before, after, match, group), JSON.stringify([value, before, match])).toBe(secretNameValid(value, before, after, match, group));
  }
  for (const [value, before, after, match, group] of candidates(prose, text)) if (group === 3) expect(prose.valid!(value, before, after, match, group)).toBe(old.proseValue(value, match));
  for (const shape of kit.shapes)
    for (const [value] of candidates(shape, text)) {
    }
}

describe("the per-match checks decide as before", () => {
  it("on the candidates of generated texts (property)", () => {
    fc.assert(fc.property(texts, sameChecks), { numRuns: 400 });
  });

  it("on the candidates of the corpus, the examples and the seeds", () => {
    for (const t of REAL) sameChecks(t);
  });

  it("on the words prose may put after a password's name: every word the lists held, in any case", () => {
    for (const w of [...old.PREDICATE, ...old.NOT_A_VALUE, "letmein", "hunter", "configurable", "Too", "KNOWN", "plainly", "tulip"])
      for (const match of [`password is ${w}`, `passphrase was ${w}`, `pw: ${w}`])
        for (const group of [3, 4]) {
          if (group === 3) expect(prose.valid!(w, "the ", "", match, 3), match).toBe(old.proseValue(w, match));
          expect(PARTS.hooks.named(w, "the ", "", match, group), match).toBe(old.namedValue(w, "the ", "", match, group));
        }
  });

  it("on words of the letters of predicates' suffixes after a password's name (property)", () => {
    const head = fc.string({ unit: fc.constantFrom("a", "b", "d", "e", "f", "g", "i", "l", "n", "o", "s", "u", "v", "y", "L", "E"), maxLength: 5 });
    const tail = fc.constantFrom("", "ed", "ing", "ly", "fly", "able", "ible", "ive", "ful", "less", "ous", "d", "ng", "y", "le", "ble", "ve", "ul", "ss", "us", "s", "ED", "Ly");
    const word = fc.tuple(head, tail).map(([h, t]) => h + t).filter((w) => w.length > 0);
    fc.assert(
      fc.property(word, fc.constantFrom("password is ", "passphrase was ", "pwd is ", "PASSWORD IS "), (w, name) => {
        expect(PARTS.hooks.named(w, "the ", "", name + w, 4), name + w).toBe(old.namedValue(w, "the ", "", name + w, 4));
      }),
      { numRuns: 3000 },
    );
  });

  it("on names of id words, split and joined every way (property)", () => {
    const words = ["trace", "Trace", "id", "Id", "ID", "ids", "X-Request-", "sha", "SHA", "256", "1", "cache", "Cache", "key", "Key", "KEY", "idempotency", "n", "N", "e", "x", "y", "x5t", "x5c", "kid", "md5", "span", "ray", "etag", "nonce", "digest", "checksum", "boundary", "hash", "secret", "credential", "Credentials", "token", "node", "a", "ab", "sh", "ke",
      // look-alikes of id words (idNamed reads the last word in place first)
      "tribe", "tRACE", "spin", "kyd", "x9t", "nance", "Digest", "CHECKSUM", "md6", "hashes", "kEY", "Shab", "sha1x", "r", "rY"];
    const name = fc.array(fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...words) }, { weight: 1, arbitrary: fc.constantFrom("_", "-", ".", "") }), { minLength: 1, maxLength: 5 }).map((p) => p.join(""));
    fc.assert(
      fc.property(name, fc.constantFrom("=", " = ", ": ", '": "', "=>", "\\\": \\\"", ":"), fc.nat(), (n, op, k) => {
        const joined = `x ${n}${op}`;
        const at = k % (joined.length + 1);
        expect(idNamed(joined.slice(0, at), joined.slice(at) + "v", joined.length - at), joined).toBe(old.idNamed(joined));
      }),
      { numRuns: 3000 },
    );
  });

  it("on any text: names read in place as joined, and names' ends (property)", () => {
    const text = fc.string({ unit: fc.constantFrom("a", "B", "x", "X", "_", "-", "/", "1", " ", "=", ":", '"', "'", "\\", ">", "\u00a0", "d", "I", "k"), maxLength: 40 });
    fc.assert(
      fc.property(text, text, fc.nat(), (before, match, k) => {
        const n = k % (match.length + 1);
        expect(idNamed(before, match, n)).toBe(old.idNamed(before + match.slice(0, n)));
        expect(notAfter(before)).toBe(old.NOT_AFTER.test(before));
      }),
      { numRuns: 2000 },
    );
  });
});

describe("no rescan after a plain mask", () => {
  // a kept prefix after a dropped backslash joins what was before it (`p\whsec_…` → `pwhsec_…`): scanned again
  const pieces = [...adversarialSeeds(), ...SHAPE_EXAMPLES, ...NAMES, ...OPS, "p\\whsec_Zx81fQ2mN7pLk3vT9wRy4uHs", "\\u0041ghp_R2d9Xk3mQ7vB1nZ8wL4tY6uH0cJ5fG2aP9sE", "sqlplus ", "password ", "[REDACTED] ", "\\", "pw"];
  const text = fc.array(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...pieces) }, { weight: 1, arbitrary: fc.string({ maxLength: 8 }) }), { maxLength: 14 }).map((p) => p.join(""));
  it("redacts as the catalogue applied shape by shape, with known values too (property)", () => {
    for (const k of [kit, known]) {
      fc.assert(
        fc.property(text, fc.boolean(), (t, about) => {
          expect(k.redactShapes(t, about)).toBe(old.shapesBefore(k.shapes, t, about));
        }),
        { numRuns: 300 },
      );
    }
  });
});

describe("identifiers read in place", () => {
  it("decide as split ones, on segments of every kind (property)", () => {
    const segment = fc.constantFrom("", "id", "None", "KeyMeshing", "Gost28147", "x64", "89", "SN", "abc", "ABC", "Ab", "aB", "k3Fq", "7RtY4c", "deadbeef", "md", "a1b2", "Zw8", "Lp2xVn", "npm", "Linux", "é", " ");
    const value = fc.array(fc.tuple(segment, fc.constantFrom("_", "-")), { maxLength: 8 }).map((p) => p.map(([s, sep]) => s + sep).join(""));
    const any = fc.oneof(value, value.map((v) => v.slice(0, -1)), fc.string({ unit: fc.constantFrom("a", "B", "1", "_", "-", "f"), maxLength: 24 }));
    fc.assert(
      fc.property(any, (v) => {
        expect(identifier(v), v).toBe(old.identifier(v));
      }),
      { numRuns: 3000 },
    );
    for (const v of ["SN_id_Gost28147_89_None_KeyMeshing", "node-cache-Linux-x64-npm-abc123", "md-k3Fq_Zw8-Lp2xVn_7RtY4c", "a_b_c_d", "abc_def__x", "", "___"]) expect(identifier(v), v).toBe(old.identifier(v));
  });
});

describe("code paths read in place", () => {
  it("decide as split ones, on identifiers joined by dots and underscores, vendor tokens among them (property)", () => {
    const body = (n: number) => fc.string({ unit: fc.constantFrom(..."AKIQZ2347abcxyz09"), minLength: n, maxLength: n });
    const piece = fc.oneof(
      fc.constantFrom("user", "pwd_v2", "settings", "db", "x", "AKIA", "ghp", "EAA", "sk"),
      body(16).map((b) => `AKIA${b.toUpperCase()}`),
      body(36).map((b) => `ghp_${b}`),
      body(30).map((b) => `EAA${b}`),
      body(4),
    );
    const value = fc.tuple(piece, fc.array(fc.tuple(fc.constantFrom(".", "_", "__", "._"), piece), { minLength: 1, maxLength: 4 }), fc.constantFrom("", ".", "_"))
      .map(([first, rest, end]) => first + rest.map(([sep, x]) => sep + x).join("") + end);
    fc.assert(
      fc.property(value, (v) => {
        expect(PARTS.codePath(v), v).toBe(old.codePath(v));
      }),
      { numRuns: 2000 },
    );
  });
});

describe("escape decoding", () => {
  // escapes of token characters and others, cut short, doubled, beside names, tokens and line breaks
  const ESCAPES = ["\\u0041", "\\u002d", "\\u002D", "\\u0026", "\\u0020", "\\u007e", "\\u00", "\\u004", "\\\\u0041", "%41", "%2F", "%2f", "%3D", "%7E", "%20", "%2", "%4g", "%%41", "\\u0067hp_"];
  const pieces = [...ESCAPES, ...NAMES, ...OPS, ...VALUES, "ghp_R2d9Xk3mQ7vB1nZ8wL4tY6uH0cJ5fG2aP9sE", "Zx81fQ2mN7pLk3vT9wRy", "password=a", "?token=", "&", "\n", "\\n", " ", "a", "0", "/"];
  const text = fc.array(fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...pieces) }, { weight: 1, arbitrary: fc.string({ maxLength: 6 }) }), { maxLength: 40 }).map((p) => p.join(""));
  it("reads the regions, decodes and maps back as before, with known values too (property)", () => {
    for (const k of [kit, known]) {
      const before = old.encodedBefore(k.shapes);
      fc.assert(
        fc.property(text, (t) => {
          expect(k.redactEncoded(t)).toBe(before(t));
        }),
        { numRuns: 500 },
      );
    }
  });
  it("on escape-dense lines, the seeds and the corpus, each repeated", () => {
    const before = old.encodedBefore(kit.shapes);
    for (const seed of ["a\\u00410\n", "ab\\u0041", "x\\u002dy\\u002dz ", '{"q":"a\\u0026b\\u0026c"}\n', "GET /srv%2Fapp%2Fdata%2Fx%3Fy%3D1 HTTP/1.1\n", "%41%42%43", "password=a\\u0041b ", ...adversarialSeeds(), ...REAL.filter((l) => /\\u00|%[2-7]/.test(l))])
      for (const t of [seed, seed.repeat(40)]) expect(kit.redactEncoded(t), JSON.stringify(seed)).toBe(before(t));
  });
});

describe("a shape read once over the escape regions joined", () => {
  /** Each look-around of `source`: its kind (`(?=`, `(?!`, `(?<=`, `(?<!`) and its body. */
  function lookArounds(source: string): [kind: string, body: string][] {
    const out: [string, string][] = [];
    /** Where the class opening at `i` closes. */
    const classEnd = (i: number) => {
      while (source[++i] !== "]") if (source[i] === "\\") i++;
      return i;
    };
    for (let i = 0; i < source.length; i++) {
      if (source[i] === "\\") i++;
      else if (source[i] === "[") i = classEnd(i);
      else if (/^\(\?<?[=!]/.test(source.slice(i, i + 4))) {
        const kind = /^\(\?<?[=!]/.exec(source.slice(i, i + 4))![0];
        let depth = 0;
        let j = i;
        for (; j < source.length; j++) {
          if (source[j] === "\\") j++;
          else if (source[j] === "[") j = classEnd(j);
          else if (source[j] === "(") depth++;
          else if (source[j] === ")" && --depth === 0) break;
        }
        out.push([kind, source.slice(i + kind.length, j)]);
      }
    }
    return out;
  }
  // (./index.ts joins the regions with "\n\0\n": a match in a region alone must be one there too, so no
  // look-around may tell the line break beside a region from the region's end, nor capture past it)
  it("no look-around of the catalogue tells a line break beside a match from the text's end", () => {
    let read = 0;
    for (const shape of known.shapes) {
      const { source, flags } = shape.pattern;
      for (const [kind, body] of lookArounds(source)) {
        read++;
        const ahead = new RegExp(`^(?:${body})`, flags.replace("g", ""));
        const behind = new RegExp(`(?:${body})$`, flags.replace("g", ""));
        if (kind === "(?!") expect(ahead.test("\n\0\n"), body).toBe(false);
        if (kind === "(?<!") expect(behind.test("\n\0\n"), body).toBe(false);
        if (kind === "(?=" && /\((?!\?)/.test(body)) expect(ahead.exec("\n\0\n")?.[0] ?? "", body).toBe("");
      }
    }
    expect(read).toBeGreaterThan(30);
  });
});
