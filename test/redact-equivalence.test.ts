// Redaction's fast paths find exactly what their plain forms find: the hand-written escape scanner
// against a plain reading (test/support/escapes-reference.ts), patterns rewritten for speed against
// the patterns they replaced, the exec loop against `String.replace`, and the vendor tokens'
// first-character gate and first-two-characters table against the catalogue, a window of a long text against the whole. Speed itself is measured by `npm run bench -- redact`.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { describeCall } from "../src/facts/call.js";
import { prunedOutputLine, shrinkArguments } from "../src/prune/stand-ins.js";
import { apply, maskAt, namesAhead, partedAt, pastEscapes, redactEncoded, redactShapes, redactor as core, runEnd, standIn, throughMarkers } from "../src/redact/index.js";
import { windowed } from "../src/redact/window.js";
import { KUBERNETES_DATA, NOT_SECRET, SHAPES, type Shape, VENDOR, VENDOR_PAIRS, VENDOR_REACH, VENDOR_START, bareToken, token, hasRun, looksRandom, mixedRun, namesNext } from "../src/redact/shapes.js";
import { ESCAPED_EXAMPLES, SHAPE_EXAMPLES, adversarialSeeds } from "./support/adversarial.js";
import { encodedReference } from "./support/escapes-reference.js";
import { trajectories } from "./support/fixtures.js";
import { negatives, positives } from "./support/secrets.js";
import { linesOf } from "./support/spans.js";
import { loadHoldout } from "../bench/holdout.js";
import { shrinkArgumentsReference } from "./support/shrink-reference.js";
import { completed } from "../src/redact/more.js";

// the whole catalogue, as a pass that rewrites reads it (./more.ts completes ./shapes.ts)
completed(core);

/** Redaction with its window functions, as pruning receives it. */
const redactor = windowed(core);
const { readTo } = redactor;

/** Pieces of secrets, names, commands, URLs and escapes, and the separators between them. */
const PIECES = [
  ...adversarialSeeds(),
  ...SHAPE_EXAMPLES,
  ...["api_key: ", "token=", "password=", "&secret=", "?next=", "--password ", "-p ", "mysql -uroot ", "sshpass -p ", "docker login -u ci ", "curl -u a:", "csrf ", "public_"],
  ...["//", "//registry.npmjs.org/", "//a.b.co:8080/x//y/", ":_authToken=", "user:Pw9xQ7z@", "@", "Zx81fQ2mN7pLk3vT9wRy4uHs", "Hk4Lz9Qw2Ex7Rt1Yu6Io3Pa8Sd5Fg0Hj4Kl7Zx2C"],
  ...["%41", "%2F", "%3D", "%3a", "%20", "%25", "%7e", "%", "\\u0041", "\\u005f", "\\u0020", "\\u00e9", "\\u004", "\\\\u0041", "\\"],
  ...[" ", "  ", "\n", "\\n", "\t", "=", ":", "-", "_", ".", "/", '"', "'", ",", "a".repeat(70), "a-".repeat(40), "x1".repeat(30)],
];
const text = fc.array(fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...PIECES) }, { weight: 1, arbitrary: fc.string({ maxLength: 8 }) }), { maxLength: 16 }).map((p) => p.join(""));

describe("the escape scanner", () => {
  it("redacts exactly as the plain reading of escape regions does, on any text with escapes (property)", () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(redactEncoded(t)).toBe(encodedReference(t, redactShapes));
      }),
      { numRuns: 3000 },
    );
  });

  it("asks each shape of the windows as the shapes before it left them: a mask can give a later shape its match (property)", () => {
    // The plain reading redacts a decoded window shape by shape; a value read on through a marker
    // (`api_key: A…DB_PASSWORD=[REDACTED]`) is a match only after the password's shape masked. The
    // scanner once asked each pattern of the windows before any mask, and left the key (CI's seeds, ~1 run in 60,000 above).
    const t = String.raw`auth=api_key: \u0041Zx81fQ2mN7pLk3vT9wRyDB_PASSWORD=coral-thistle-i`;
    expect(redactEncoded(t)).toBe(encodedReference(t, redactShapes));
    expect(redactEncoded(t)).not.toContain("Zx81fQ2mN7pLk3vT9wRy");
    const names = ["auth=", "api_key: ", "token=", "password=", "_PASSWORD=", "DB_PASSWORD=", "secret: ", "client_secret=", "--password ", "key="];
    const escapes = ["\\u0041", "%41", "\\u005f", "%2D", "\\u002d", "%3D"];
    const piece = fc.oneof(fc.constantFrom(...names, ...escapes, "_", "-", "=", ":", " "), fc.stringMatching(/^[A-Za-z\d]{4,24}$/));
    fc.assert(
      fc.property(fc.array(piece, { minLength: 2, maxLength: 8 }).map((p) => p.join("")), (s) => {
        expect(redactEncoded(s)).toBe(encodedReference(s, redactShapes));
      }),
      { numRuns: 3000 },
    );
  });

  it("reads each shape's windows only up to its prefilter's last word, and misses none after it: long texts (property)", () => {
    // Texts over the trigger scan's chunks (8,192 characters): escaped examples of shapes before, between
    // and after thousands of short escaped lines; a shape's joined windows are read to the chunk of its last word.
    const examples = fc.array(fc.constantFrom(...ESCAPED_EXAMPLES), { minLength: 1, maxLength: 6 }).map((e) => e.join("\n") + "\n");
    const filler = fc.tuple(fc.constantFrom("a%41bcdefg\n", "x%3Dabcdefgh\n", "ab\\u0041 "), fc.integer({ min: 500, max: 4000 })).map(([line, n]) => line.repeat(n));
    const text = fc.tuple(examples, filler, examples, filler, fc.nat(2)).map(([a, f, b, g, at]) => (at === 0 ? a + f + g + b : at === 1 ? f + a + g + b : f + g + a));
    fc.assert(
      fc.property(text, (t) => {
        expect(redactEncoded(t)).toBe(encodedReference(t, redactShapes));
      }),
      { numRuns: 25 },
    );
  });

  it("reads no escape where its backslash is escaped: a JSON text redacted stays JSON (property)", () => {
    // `\\u0063` in JSON is a backslash, then "u0063": decoded as an escape, a stretch rewritten around it
    // wrote `\c`, which is no JSON (found by the round 8 review, present before it)
    const piece = fc.constantFrom("sqlplus ", "u/pass1", "\\u0040", "%40", "db:1 ", "s", "\\\\u0063", "\\\\", "ott/tiger1", "ghp_R2d9Xk3mQ7vBnZ8wL4tY6uH0cJ5fG2aP9sE", " token=", "\\u0041", "Zx8qLw2zRt5y", "/", ":", " ");
    const json = fc.array(piece, { minLength: 1, maxLength: 14 }).map((p) => `{"a":"${p.join("")}"}`);
    let escaped = 0;
    fc.assert(
      fc.property(json, (j) => {
        const out = core.redact(j);
        expect(() => JSON.parse(out)).not.toThrow();
        if (j.includes("\\\\u0063") && out !== j) escaped++;
      }),
      { numRuns: 4000 },
    );
    expect(escaped).toBeGreaterThan(100);
    const found = `{"a":"sqlplus \\u0041ott/tiger1sqlplus \\\\u0063u/pass1\\u0040ott/tiger1"}`;
    expect(JSON.parse(core.redact(found)).a).not.toContain("pass1");
    expect(core.redact(found)).toContain("\\\\u0063u/");
  });

  it("decodes an escape-dense text as one region: the token it spells is masked, the rest keeps its escapes", () => {
    // (the token's raw form, split by its escape, is no token: only the decoded one is found)
    const dense = `x=1 ${"%41".repeat(3000)} ghp_R2d9Xk3mQ7v\\u0042nZ8wL4tY6uH0cJ5fG2aP9sE ${"\\u0041".repeat(3000)} end`;
    const out = redactEncoded(dense);
    expect(out).not.toContain("nZ8wL4tY6uH0cJ5fG2aP9sE");
    expect(out.startsWith(`x=1 ${"%41".repeat(3000)} ghp_`)).toBe(true);
    expect(out.endsWith(`${"\\u0041".repeat(3000)} end`)).toBe(true);
  });
});

/**
 * Whether a CSRF name gives the match, read plainly: the name runs on into it; or its operator and
 * quotes stand between and the match is its value; or the name is closed and the match is its next
 * attribute's value or its last word.
 */
function csrfNamedPlainly(before: string, match: string, value: string): boolean {
  const name = String.raw`(?<![A-Za-z\d])(?:c|x)srf[\w-]*(?: ?token)?`; // (a word of its own, not inside a random run)
  const operator = String.raw`\\?["']?(?:\s{0,4}[:=]|\s{1,4}(?:content|value)\s{0,2}=)\s{0,4}\\?["']?`;
  const closed = String.raw`(?:\\?["']\s{1,4}|\s)`;
  const named = new RegExp(`${name}(?:${operator}|${closed})?$`, "i").exec(before);
  if (!named || /secret|key|pass|salt/i.test(named[0])) return false; // a signing secret's name
  if (new RegExp(`${name}$`, "i").test(before)) return match === value || /^token/i.test(match);
  if (new RegExp(`${name}${operator}$`, "i").test(before)) return /^\\?["'`]?$/.test(match.slice(0, match.lastIndexOf(value)));
  return /^(?:(?:content|value)\s{0,2}=|token\b)/i.test(match);
}

/**
 * `apply` written plainly: the shape's pattern's own `exec`, without the prefilters read by hand
 * (`gate`), the lighter pattern (`lite`) or the finder by hand (`find`), and the checks as regexes: the
 * fast loop must agree with it. What a value masked in part by a rule before reads on through
 * (`throughMarkers`, `standIn`), the run a token starts (`runEnd`) and a value that is a name of the
 * shape's own (`namesAhead`, and where a value before it ends, `partedAt`, judged whole where turned down alone), and a
 * value that is a credential's name before the value it gives (`namesNext`) are the same functions:
 * test/redact-names.test.ts attacks those.
 */
function applyPlainly(text: string, shape: Shape, prefilterInMatch = false): string {
  if (shape.needs && !shape.needs.test(text)) return text;
  const pattern = new RegExp(shape.pattern.source, shape.pattern.flags);
  if (!pattern.global) throw new Error(`a shape's pattern is global: ${pattern.source}`);
  let out = "";
  let done = 0;
  let reread = 0;
  const passes = (value: string, at: number, match: string, group: number | undefined) =>
    !NOT_SECRET.test(value) &&
    !(!shape.labels && match.endsWith(value) && namesNext(value, text, at + match.length)) &&
    !(group && csrfNamedPlainly(text.slice(Math.max(0, at - 40), at), match, value)) &&
    !(group && shape.random?.includes(group) && !looksRandom(value)) &&
    !(shape.valid && !shape.valid(value, text.slice(Math.max(0, at - 64), at), text[at + match.length] ?? "", match, group ?? 0));
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
    const [match] = m;
    const at = m.index;
    if (prefilterInMatch && shape.needs && !shape.needs.test(match)) continue;
    const group = shape.group?.find((g) => m![g] !== undefined);
    let value = group ? m[group] : match;
    while (value.length > 1 && value.endsWith("\\")) value = value.slice(0, -1); // the backslash of an escape after it is no part of it
    const start = at + (group ? match.lastIndexOf(value) : 0);
    if (start < done) continue;
    let end = start + value.length;
    const ahead = group && shape.labels?.includes(group) ? namesAhead(shape, pattern, text, start, end) : undefined;
    const whole = value; // (judged where the part before the name is turned down alone)
    if (ahead) {
      pattern.lastIndex = ahead.index; // (found again by the loop: the fast one takes it as it is)
      if ((end = partedAt(text, start, ahead.index)) === start) continue;
      value = text.slice(start, end);
    }
    if (/…|REDACTED\]/.test(value) || /^\[REDACTED(?: PRIVATE KEY)?\]/.test(text.slice(end))) {
      const through = throughMarkers(text, start, end);
      if (through >= 0 && passes(standIn(text.slice(start, through)), at, match, group)) {
        out += text.slice(done, Math.max(done, maskAt(text, start, value)[0])) + "[REDACTED]";
        done = through;
        continue;
      }
      if (/…|REDACTED\]/.test(value)) continue;
    }
    if (!passes(value, at, match, group)) {
      if (!ahead || !passes(whole, at, match, group)) {
        if (!ahead && group && start >= reread && shape.reread?.includes(group) && shape.needs!.test(value)) [pattern.lastIndex, reread] = [start, end]; // (the value read again for a name inside it, once a stretch)
        continue;
      }
      [value, end] = [whole, start + whole.length];
    }
    // a token that runs on past an escape of a token character is left to the decoding pass, which reads it whole
    const escape = /^(?:\\u00([2-7][\dA-Fa-f])|%([2-7][\dA-Fa-f]))/.exec(text.slice(end));
    if (escape && /[\w+/=.~:@&?-]/.test(String.fromCharCode(parseInt(escape[1] ?? escape[2], 16)))) continue;
    end = pastEscapes(text, runEnd(text, end));
    const [from, marker] = maskAt(text, start, text.slice(start, end));
    out += text.slice(done, Math.max(done, from)) + marker;
    done = end;
    // a flag masked as a name's value, or at the end of one after an operator (`=--token`), names the value after it:
    // read on from its dashes where its name holds a word of the shape's and a value follows on the line, once a stretch
    const masked = text.slice(start, end);
    const flag = /^-/.test(masked) && !/[=:]-/.test(masked) ? 0 : (/^[^]*[=:](?=-)/.exec(masked)?.[0].length ?? -1);
    if (!ahead && group && start >= reread && shape.reread?.includes(group) && flag >= 0 && /^[ \t]{1,4}["'`]?[^\s"'`,;&()<>{}[\]\\=:-]/.test(text.slice(end)) && shape.needs!.test(masked.slice(flag))) {
      [pattern.lastIndex, reread] = [start + flag, end];
    }
  }
  return out + text.slice(done);
}

/**
 * A shape as its pattern was written before it was made fast: each atomic run `(?=(X))\N` the plain
 * greedy `X` (the capture removed, later groups renumbered), no vendor gate, no lite pattern.
 */
function plain(shape: Shape): Shape {
  let source = shape.pattern.source.replace(`(?=${VENDOR_START})`, "");
  let { group, random, reread } = shape;
  for (let m = /\(\?=\(([^()]+)\)\)\\(\d)/.exec(source); m; m = /\(\?=\(([^()]+)\)\)\\(\d)/.exec(source)) {
    source = source.replace(m[0], m[1]);
    const n = Number(m[2]);
    const renumber = (g: number) => (g > n ? g - 1 : g);
    group = group?.map(renumber);
    random = random?.map(renumber);
    reread = reread?.map(renumber);
  }
  return { ...shape, pattern: new RegExp(source, shape.pattern.flags), group, random, reread, lite: undefined };
}

describe("patterns rewritten for speed", () => {
  const rewritten = SHAPES.filter((s) => plain(s).pattern.source !== s.pattern.source || s.lite);

  it("are the vendor gate, the .npmrc path, the bare token's name and the password flags' arguments", () => {
    expect(rewritten.length).toBe(14); // 11 password flags
  });

  it("mask exactly what the plain patterns masked, on any text (property)", () => {
    fc.assert(
      fc.property(text, (t) => {
        for (const shape of rewritten) expect(apply(t, shape), shape.pattern.source).toBe(applyPlainly(t, plain(shape)));
      }),
      { numRuns: 1500 },
    );
  });

  it("apply (gates and finders by hand, lighter patterns) masks exactly what the pattern's own exec loop masked, for every shape (property)", () => {
    fc.assert(
      fc.property(text, (t) => {
        for (const shape of [KUBERNETES_DATA, ...SHAPES]) expect(apply(t, shape), shape.pattern.source).toBe(applyPlainly(t, shape));
      }),
      { numRuns: 1500 },
    );
  });

  it("bareToken judges by letter counts in typed arrays as it did with a Map (property)", () => {
    const entropy = (v: string) => {
      const counts = new Map<string, number>();
      for (const c of v) counts.set(c, (counts.get(c) ?? 0) + 1);
      return [...counts.values()].reduce((bits, n) => bits - (n / v.length) * Math.log2(n / v.length), 0);
    };
    const byMap = (v: string) =>
      /[a-z]/.test(v) && /[A-Z]/.test(v) && /\d\D{1,40}\d/.test(v) && looksRandom(v) && !NOT_SECRET.test(v) && !/^(?:iVBOR|\/9j\/|R0lGOD|UklGR|JVBER|PHN2Z)/.test(v) && entropy(v) > 3.6;
    const token = fc.string({ unit: fc.constantFrom(..."aAbBzZ0189+~-_xyXY".split("")), minLength: 20, maxLength: 122 });
    fc.assert(
      fc.property(token, (v) => {
        expect(bareToken(v)).toBe(byMap(v));
      }),
      { numRuns: 5000 },
    );
  });

  it("hasRun finds a run as a regex does (property)", () => {
    const word = Uint8Array.from({ length: 128 }, (_, c) => +/[\w-]/.test(String.fromCharCode(c)));
    const unit = fc.constantFrom(..."a-_9 .é\u0000\ud800".split(""));
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 60 }), fc.integer({ min: 1, max: 24 }), (t, min) => {
        expect(hasRun(t, min, word)).toBe(new RegExp(`[\\w-]{${min}}`).test(t));
      }),
      { numRuns: 5000 },
    );
  });

  it("mixedRun reads runs by char code as the regex reading did (property)", () => {
    const byRegex = (v: string, min: number) => (v.match(/[A-Za-z\d]+/g) ?? []).some((r) => r.length >= min && /\d/.test(r) && /[A-Za-z]/.test(r));
    const unit = fc.constantFrom(..."aZ09_-. /é\u0000\ud800".split(""));
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 40 }), fc.integer({ min: 1, max: 20 }), (v, min) => {
        expect(mixedRun(v, min)).toBe(byRegex(v, min));
      }),
      { numRuns: 3000 },
    );
  });
});

/**
 * The characters an alternative of a regex source can start with, read by hand: literals, escapes,
 * classes and groups; lookarounds are skipped (they consume nothing).
 */
function firstChars(source: string): Set<string> {
  const out = new Set<string>();
  for (const alt of splitTop(source)) {
    let s = alt;
    while (/^\(\?<?[=!]/.test(s)) s = s.slice(closing(s, 0) + 1); // a lookaround
    if (/^[*+?{]/.test(s.slice(atomEnd(s)))) throw new Error(`an optional first atom in ${alt}: read it by hand`);
    if (s.startsWith("(")) for (const c of firstChars(s.slice(s.startsWith("(?:") ? 3 : 1, closing(s, 0)))) out.add(c);
    else if (s.startsWith("[")) for (const c of classChars(s.slice(1, s.indexOf("]", 2)))) out.add(c);
    else if (s.startsWith("\\")) out.add(s[1]);
    else out.add(s[0]);
  }
  return out;
}
const closing = (s: string, open: number) => {
  for (let i = open, depth = 0; i < s.length; i++) {
    if (s[i] === "\\") i++;
    else if (s[i] === "[") i = s.indexOf("]", i + 2);
    else if (s[i] === "(") depth++;
    else if (s[i] === ")" && --depth === 0) return i;
  }
  throw new Error(`unclosed group in ${s}`);
};
const atomEnd = (s: string) => (s[0] === "(" ? closing(s, 0) + 1 : s[0] === "[" ? s.indexOf("]", 2) + 1 : s[0] === "\\" ? 2 : 1);
function splitTop(source: string): string[] {
  const parts: string[] = [];
  let last = 0;
  for (let i = 0; i < source.length; i++) {
    if (source[i] === "\\") i++;
    else if (source[i] === "[") i = source.indexOf("]", i + 2);
    else if (source[i] === "(") i = closing(source, i);
    else if (source[i] === "|") [parts[parts.length], last] = [source.slice(last, i), i + 1];
  }
  return [...parts, source.slice(last)];
}
function classChars(body: string): string[] {
  const chars: string[] = [];
  for (let i = 0; i < body.length; i++) {
    if (body[i] === "\\") {
      const e = body[++i];
      chars.push(...(e === "d" ? "0123456789" : e === "w" ? "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_" : e));
    } else if (body[i + 1] === "-" && i + 2 < body.length) {
      for (let c = body.charCodeAt(i); c <= body.charCodeAt(i + 2); c++) chars.push(String.fromCharCode(c));
      i += 2;
    } else chars.push(body[i]);
  }
  return chars;
}

/** The atoms of a sequence (no top-level `|`): each with the least count its quantifier allows. */
function atoms(seq: string): [atom: string, least: number][] {
  const out: [string, number][] = [];
  for (let s = seq; s; ) {
    const end = atomEnd(s);
    const q = /^(?:\{(\d+)(?:,\d*)?\}|[*+?])?/.exec(s.slice(end))!;
    out.push([s.slice(0, end), q[0] === "" || q[0] === "+" ? 1 : Number(q[1] ?? 0)]);
    s = s.slice(end + q[0].length);
  }
  return out.filter(([atom]) => !/^\(\?<?[=!]|^\\b$/.test(atom)); // lookarounds and \b consume nothing
}
const inner = (group: string) => group.slice(group.startsWith("(?:") ? 3 : 1, -1);

/**
 * The first `n` characters of every match of `source` (fewer where a match is shorter), read by hand: each
 * atom's characters, a group's alternatives, an optional atom both taken and skipped; look-arounds and `\b` consume none.
 */
function prefixes(source: string, n: number): Set<string> {
  const out = new Set<string>();
  for (const alt of splitTop(source)) {
    let s = alt;
    while (/^(?:\(\?<?[=!]|\\b)/.test(s)) s = s.slice(s[0] === "\\" ? 2 : closing(s, 0) + 1);
    if (!n || !s) {
      out.add("");
      continue;
    }
    const end = atomEnd(s);
    const q = /^(?:\{(\d+)(,?)(\d*)\}|[*+?])?/.exec(s.slice(end))!;
    const least = q[0] === "" || q[0] === "+" ? 1 : q[1] ? Number(q[1]) : 0;
    const most = q[0] === "" || q[0] === "?" ? 1 : q[0] === "*" || q[0] === "+" || (q[2] && !q[3]) ? Infinity : Number(q[3] || q[1]);
    const atom = s.slice(0, end);
    const after = s.slice(end + q[0].length);
    if (!least) for (const p of prefixes(after, n)) out.add(p);
    if (!most) continue;
    // once taken, the atom again as often as it still may, then the rest
    const again = most > 1 ? `(?:${atom}){${Math.max(0, least - 1)},${most === Infinity ? "" : most - 1}}` : "";
    const heads = atom.startsWith("(") ? prefixes(inner(atom), n) : charsOf(atom);
    for (const h of heads) for (const p of h.length >= n ? [""] : prefixes(again + after, n - h.length)) out.add((h + p).slice(0, n));
  }
  return out;
}
const charsOf = (atom: string) => (atom.startsWith("[") ? classChars(atom.slice(1, -1)) : atom.startsWith("\\") ? classChars(atom) : [atom]);
/** The fewest characters a match of `source` has. */
const leastLength = (source: string): number =>
  Math.min(...splitTop(source).map((alt) => atoms(alt).reduce((n, [a, least]) => n + least * (a.startsWith("(") ? leastLength(inner(a)) : 1), 0)));
/** Whether every character a match of `source` can have is one of `run`. */
const within = (source: string, run: (c: string) => boolean): boolean =>
  splitTop(source).every((alt) => atoms(alt).every(([a]) => (a.startsWith("(") ? within(inner(a), run) : charsOf(a).every(run))));

/**
 * The longest run of characters of `run` that every match of `source` holds, read by hand: atoms (and
 * groups) made of the run add their least length, any other ends the run; a group's own runs count.
 */
function leastRun(source: string, run: (c: string) => boolean): number {
  return Math.min(
    ...splitTop(source).map((alt) => {
      let [best, current] = [0, 0];
      for (const [atom, least] of atoms(alt)) {
        const group = atom.startsWith("(");
        if (group ? within(inner(atom), run) : charsOf(atom).every(run)) current += least * (group ? leastLength(inner(atom)) : 1);
        else [best, current] = [Math.max(best, current, group ? leastRun(inner(atom), run) : 0), 0];
      }
      return Math.max(best, current);
    }),
  );
}

/** The most characters a match of `source` has (Infinity: unbounded). */
const mostLength = (source: string): number =>
  Math.max(...splitTop(source).map((alt) => mostAtoms(alt).reduce((n, [a, most]) => n + most * (a.startsWith("(") ? mostLength(inner(a)) : 1), 0)));
/** The atoms of a sequence, each with the most count its quantifier allows (lookarounds and \b consume nothing). */
function mostAtoms(seq: string): [atom: string, most: number][] {
  const out: [string, number][] = [];
  for (let s = seq; s; ) {
    const end = atomEnd(s);
    const q = /^(?:\{(\d+)(?:(,)(\d*))?\}|[*+?])?/.exec(s.slice(end))!;
    out.push([s.slice(0, end), q[0] === "" ? 1 : q[0] === "?" ? 1 : q[1] === undefined || q[3] === "" ? Infinity : Number(q[2] ? q[3] : q[1])]);
    s = s.slice(end + q[0].length);
  }
  return out.filter(([atom]) => !/^\(\?<?[=!]|^\\b$/.test(atom));
}
/**
 * How far from its start every match of `source` holds `min` characters of `run` in a row at most
 * (Infinity: none is sure), read by hand: each atom outside the run moves the bound past its longest
 * form; a group that must match and holds such a run of its own bounds it too.
 */
function runStart(source: string, run: (c: string) => boolean, min: number): number {
  return Math.max(
    ...splitTop(source).map((alt) => {
      const most = mostAtoms(alt);
      let [consumed, start, current] = [0, 0, 0];
      for (const [k, [atom, least]] of atoms(alt).entries()) {
        const group = atom.startsWith("(");
        const length = most[k][1] * (group ? mostLength(inner(atom)) : 1);
        if (group ? within(inner(atom), run) : charsOf(atom).every(run)) {
          current += least * (group ? leastLength(inner(atom)) : 1);
          if (current >= min) return start;
        } else {
          if (group && least > 0 && runStart(inner(atom), run, min) < Infinity) return consumed + runStart(inner(atom), run, min);
          [start, current] = [consumed + length, 0];
        }
        consumed += length;
      }
      return Infinity;
    }),
  );
}

describe("the vendor tokens' gates", () => {
  it("every vendor token holds 13 word characters or hyphens in a row within VENDOR_REACH of its start, or 20 of base64's from its start (where the shape's `find` reads)", () => {
    const word = (c: string) => /[\w-]/.test(c);
    const base64 = (c: string) => /[\w+/=-]/.test(c);
    const far = splitTop(VENDOR).filter((alt) => runStart(alt, word, 13) > VENDOR_REACH && runStart(alt, base64, 20) > 0);
    expect(far).toEqual([]);
    // the bound is the catalogue's own: Doppler's `dp.` prefix, a scope and a name before its 40 characters
    expect(Math.max(...splitTop(VENDOR).map((alt) => Math.min(runStart(alt, word, 13), runStart(alt, base64, 20) > 0 ? Infinity : 0)))).toBe(VENDOR_REACH);
  });

  it("reads where runs start by hand as the regex engine matches them", () => {
    const word = (c: string) => /[\w-]/.test(c);
    expect(runStart(String.raw`(?:AKIA|A3T[A-Z\d])[A-Z\d]{16}\b`, word, 13)).toBe(0);
    expect(runStart(String.raw`dp\.[a-z]{2,5}\.(?:[\w-]{1,20}\.)?[A-Za-z\d]{40}`, word, 13)).toBe(30);
    expect(runStart(String.raw`access_token\$(?:production|sandbox)\$\w{16}`, word, 13)).toBe(24);
    expect(runStart(String.raw`(?<=[A-Za-z\d]{14})\.atlasv1\.[\w-]{60}`, word, 13)).toBe(9);
    expect(runStart(String.raw`ab\.[\w-]{12}`, word, 13)).toBe(Infinity);
    expect(runStart(String.raw`x\.(?:y\.[\w-]{13})z`, word, 13)).toBe(4);
  });

  it("every vendor token holds 13 word characters or hyphens in a row, or 20 of base64's (the gate of their shape)", () => {
    const word = (c: string) => /[\w-]/.test(c);
    const base64 = (c: string) => /[\w+/=-]/.test(c);
    const short = splitTop(VENDOR).filter((alt) => leastRun(alt, word) < 13 && leastRun(alt, base64) < 20);
    expect(short).toEqual([]);
  });

  it("reads runs by hand as the regex engine matches them", () => {
    const word = (c: string) => /[\w-]/.test(c);
    expect(leastRun(String.raw`(?:AKIA|A3T[A-Z\d])[A-Z\d]{16}\b`, word)).toBe(20);
    expect(leastRun(String.raw`xox[abp]-[\w-]{10}[\w-]*|AKC[A-Za-z\d]{10}`, word)).toBe(13);
    expect(leastRun(String.raw`ab(?:cdefgh|x)\.[\w=]{30}`, word)).toBe(3);
    expect(leastRun(String.raw`A3-[A-Z\d]{6}-(?:[A-Z\d]{11}|[A-Z\d]{6}-[A-Z\d]{5})\b`, word)).toBe(21);
    expect(leastRun(String.raw`x(?:ab|c\.d)y{20}`, word)).toBe(20);
  });
});

describe("the vendor tokens' first-character gate", () => {
  it("holds the first character of every vendor token in the catalogue", () => {
    const gate = new Set(classChars(VENDOR_START.slice(1, -1)));
    const starts = firstChars(VENDOR);
    expect(starts.size).toBeGreaterThan(15);
    expect([...starts].filter((c) => !gate.has(c))).toEqual([]);
  });

  it("reads first characters by hand as the regex engine does", () => {
    expect([...firstChars(String.raw`(?:AKIA|A3T[A-Z\d])x|[rs]k_|\.a|(?<=x{2})\.b|(?:hv[sbr]|s)\.`)].sort()).toEqual([".", "A", "h", "r", "s"]);
  });

  it("holds the first two characters of every vendor token in the catalogue (the finder's pair table)", () => {
    const pairs = new Set(VENDOR_PAIRS.split(" ").flatMap((p) => [...p.slice(1)].map((c) => p[0] + c)));
    const starts = new Set(splitTop(VENDOR).flatMap((alt) => [...prefixes(alt, 2)]));
    expect(starts.size).toBeGreaterThan(30);
    expect([...starts].filter((p) => !pairs.has(p))).toEqual([]);
  });

  it("reads first two characters by hand as the regex engine does", () => {
    expect([...prefixes(String.raw`(?:AKIA|A3T[A-Z\d])x|[rs]k_|(?<=x{2})\.b|(?:hv[sbr]|s)\.|ab?c|d{2}|e[\dx]{1,3}|\bf+g`, 2)].sort()).toEqual(
      [".b", "A3", "AK", "ac", "ab", "dd", "e0", "e1", "e2", "e3", "e4", "e5", "e6", "e7", "e8", "e9", "ex", "fg", "ff", "hv", "rk", "s.", "sk"].sort(),
    );
  });

  it("starts every string a vendor's format makes that the alternation takes (property)", () => {
    const pairs = new Set(VENDOR_PAIRS.split(" ").flatMap((p) => [...p.slice(1)].map((c) => p[0] + c)));
    const formats = splitTop(VENDOR).map((alt) => fc.stringMatching(new RegExp(`^(?:${alt.replace(/\\b|\(\?<?[=!][^()]*\)/g, "")})$`)));
    fc.assert(
      fc.property(fc.oneof(...formats), (t) => {
        if (token(t)) expect(pairs.has(t.slice(0, 2)), t).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});

describe("the vendor tokens' finder", () => {
  it("finds exactly what the pattern's own exec finds, on text of tokens cut, glued to words and escapes (property)", () => {
    const vendor = SHAPES.find((s) => s.pattern.source.includes(VENDOR_START))!;
    const exhaustive = { ...vendor, find: undefined }; // the pattern's exec, tried at every start
    const formats = splitTop(VENDOR).map((alt) => fc.stringMatching(new RegExp(`^(?:${alt.replace(/\\b|\(\?<?[=!][^()]*\)/g, "")})$`)));
    const piece = fc.oneof(
      { weight: 3, arbitrary: fc.oneof(...formats).chain((t) => fc.nat(t.length).map((cut) => t.slice(0, t.length - (cut % 3)))) },
      { weight: 2, arbitrary: fc.constantFrom(" ", "-", "_", ".", "/", "=", '"', "\\n", "é", "x", "A", "s", "1", "%41", "\\u0041") },
      { weight: 1, arbitrary: fc.stringMatching(/^[\w-]{1,30}$/) },
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }).map((p) => p.join("")), (t) => {
        expect(apply(t, vendor)).toBe(apply(t, exhaustive));
      }),
      { numRuns: 1500 },
    );
  });
});

describe("quoting from a window of a long text", () => {
  // Lines as they come: secrets of the corpora (shared and holdout), lines of real tool outputs, and
  // lines whose secret's context stands far before it (a program, a name on the line above), or whose
  // value runs on in quotes past the part kept.
  const lines = [
    ...positives().map((p) => p.line),
    ...negatives().map((n) => n.line),
    ...loadHoldout().positives.map((p) => p.line),
    ...linesOf(trajectories().slice(0, 4), 20).slice(0, 400),
    "x ".repeat(400),
    "mysql \\",
    `  --opt=${"v".repeat(250)} \\`,
    "password:",
    "  hunter2-Qx9vL7mZ4",
    `secret_token: "hello world Qx9vL7mZ4pR2 ${"and more ".repeat(40)}"`,
  ];
  const doc = fc.array(fc.constantFrom(...lines), { minLength: 2, maxLength: 40 }).map((l) => l.join("\n"));
  /** Redaction that never reads a window: the whole output, the whole arguments. */
  const whole = { ...redactor, redactFrom: () => undefined, readTo: () => undefined };

  it("a pruned output's one-liner quotes what redacting the whole output gives (property)", () => {
    let windows = 0;
    fc.assert(
      fc.property(doc, (output) => {
        if (redactor.readTo(output, 0) !== undefined) windows++;
        expect(prunedOutputLine("Bash", output, 0, redactor)).toBe(prunedOutputLine("Bash", output, 0, whole));
      }),
      { numRuns: 3000 },
    );
    expect(windows).toBeGreaterThan(1000);
  });

  it("a long leaf's end read too: a name there whose value is the next member's key (CI's seed -2088267854)", () => {
    // whole, `$API_KEY","password` is a name and a value its rule refuses, which takes the `password` key
    // from the member after; a window of the leaf's start alone gave that member's value its own match
    const a = JSON.stringify({ path: "src/a.ts", content: `${"x ".repeat(800)}\nX-JFrog-Art-Api: $API_KEY`, password: "JWT_SECRET=RsjDVNaQwiK9OYA02a4nrFXIP2bn6ptoEka4xEMbYVA=\n### note" });
    expect(shrinkArguments(a, redactor)).toBe(shrinkArguments(a, whole));
    expect(shrinkArguments(a, redactor)).not.toContain("RsjDVNaQ");
  });

  it("shrunk arguments keep what redacting the whole arguments keeps (property)", () => {
    const args = fc.tuple(doc, doc, fc.constantFrom("", "deploy", "password")).map(([a, b, key]) => JSON.stringify({ path: "src/a.ts", content: a, [key || "note"]: b }));
    fc.assert(
      fc.property(args, (a) => {
        expect(shrinkArguments(a, redactor)).toBe(shrinkArguments(a, whole));
        expect(describeCall("Write", a, redactor)).toBe(describeCall("Write", a, whole));
      }),
      { numRuns: 2000 },
    );
  });

  it("a window without what a `context` shape's matches hold reads as the whole, wherever the context stands (property)", () => {
    // Oracle's prefilter (`sqlplus`) and random_password's may stand anywhere; a match of the one holds
    // an `@` (or an escape decoded to one), of the other `"result"`: a window lacking them is read, not
    // the whole. The quoted line (an error) with a context near it or far from it, before or after.
    const contexts = ["sqlplus -s", "jdbc:oracle:thin", "host db:1521", 'resource "random_password" "db" {}', "jdbc%3Aoracle%3Athin", "url=jdbc\\u003aoracle"];
    const quoted = [
      "scott/tig3r9x@dbhost:1521/orcl",
      "scott/tig3r9x@dbhost/orcl",
      "scott/tig3r9x%40dbhost/orcl",
      "scott/tig3r9x\\u0040dbhost/orcl",
      "u/p4ssw0rdX@//h/s",
      '"result": "Xq9vL7mZ4pR2wT8y"',
      '"result" : "hunter2-Qx9vL7"',
      "connection refused",
    ].map((q) => `error: ${q}`);
    const filler = fc.array(fc.constantFrom("ok", "x ".repeat(300), "filler text ".repeat(60), ...lines.slice(0, 40)), { maxLength: 12 });
    const doc = fc
      .tuple(filler, fc.constantFrom(...contexts), filler, fc.constantFrom(...quoted), filler, fc.boolean())
      .map(([a, context, b, line, c, after]) => (after ? [...a, line, ...b, context, ...c] : [...a, context, ...b, line, ...c]).join("\n"));
    let read = 0;
    fc.assert(
      fc.property(doc, (output) => {
        // the former reading: a text holding a context shape's context was never read in a window
        if (redactor.contextIn(output) && redactor.redactFrom(output, 0, 1) !== undefined) read++;
        expect(prunedOutputLine("Bash", output, 0, redactor)).toBe(prunedOutputLine("Bash", output, 0, whole));
      }),
      { numRuns: 3000 },
    );
    expect(read).toBeGreaterThan(300);
  });

  it("each `context` shape says what every match of it holds, and matches nothing without it", () => {
    const contextual = redactor.streamKit.shapes.filter((s) => s.context);
    expect(contextual.length).toBeGreaterThan(1);
    const texts = [...lines, ...SHAPE_EXAMPLES, ...adversarialSeeds(), "sqlplus scott/tig3r9x@dbhost/orcl", 'random_password "result": "Xq9vL7mZ4pR2wT8y"'];
    for (const shape of contextual) {
      expect(shape.holds).toBeTruthy();
      expect(texts.some((t) => apply(t, shape, true) !== t)).toBe(true);
      for (const t of texts.map((x) => x.replaceAll(shape.holds!, " "))) expect(apply(t, shape, true)).toBe(t);
    }
  });

  it("shrunk arguments are written as the tree shrunk into a copy wrote them, drafted or redacted (property)", () => {
    // Where nothing is masked (a draft always) the tree is stringified with its leaves shrunk on the
    // way: the same keys in the same order (`__proto__`, `toJSON`, integer-like keys first), arrays,
    // nesting, leaves of every length about the limit, token runs and surrogate pairs at the cut.
    const DRAFT = { redact: (t: string) => t, redactFrom: (t: string, from: number) => t.slice(from), readTo: () => undefined, readFrom: () => 0 };
    const long = fc.tuple(text, fc.constantFrom(0, 150, 195, 199, 200, 201, 260, 700), fc.constantFrom("a", "x1", "é", "😀", " ", "-", "\n")).map(([t, n, fill]) => t + fill.repeat(n) + t);
    const leaf = fc.oneof(long, text, fc.integer(), fc.constant(null), fc.boolean(), fc.double({ noNaN: true }));
    const key = fc.oneof(fc.constantFrom("__proto__", "toJSON", "0", "12", "content", "password", "command", "api_key"), fc.string({ maxLength: 6 }));
    const tree = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: "small", withCrossShrink: true }, leaf, fc.array(tie("node"), { maxLength: 4 }), fc.dictionary(key, tie("node"), { maxKeys: 5 })),
    })).node;
    const args = fc.tuple(tree, fc.boolean()).map(([t, spaced]) => JSON.stringify(t, null, spaced ? 1 : undefined) ?? "null");
    fc.assert(
      fc.property(args, (a) => {
        expect(shrinkArguments(a, DRAFT)).toBe(shrinkArgumentsReference(a, DRAFT));
        expect(shrinkArguments(a, redactor)).toBe(shrinkArgumentsReference(a, redactor));
      }),
      { numRuns: 1500 },
    );
  });

  it("read past the kept part as far as a value in quotes runs on", () => {
    const line = `secret_token: "hello world Qx9vL7mZ4pR2 ${"and more ".repeat(40)}"`;
    const args = JSON.stringify({ content: `${line}\n${"filler text ".repeat(400)}` });
    expect(shrinkArguments(args, redactor)).not.toContain("Qx9vL7mZ4pR2");
    expect(shrinkArguments(args, redactor)).toBe(shrinkArguments(args, whole));
    const output = `${"ok\n".repeat(3)}error: ${line}\n${"filler text ".repeat(400)}`;
    expect(prunedOutputLine("Bash", output, 0, redactor)).toBe(prunedOutputLine("Bash", output, 0, whole));
  });

  it("a prefilter stands inside every match its shape masks, unless the shape says it reads context", () => {
    // A window knows a shape's prefilter only from what it holds: Oracle's `sqlplus` may stand 40 lines
    // away, so that shape is `context` and a text holding it is read whole.
    const texts = [...lines, ...SHAPE_EXAMPLES, ...adversarialSeeds()];
    for (const shape of SHAPES.filter((s) => s.needs && !s.context)) {
      for (const t of texts) expect(applyPlainly(t, plain(shape), true), `${shape.pattern.source.slice(0, 40)} on ${t.slice(0, 80)}`).toBe(applyPlainly(t, plain(shape)));
    }
  });

  it("says how far a long leaf must be read: past the kept part by the reach of what starts there", () => {
    const leaf = `${"word ".repeat(2000)}`;
    expect(readTo(leaf, 200)!).toBeLessThan(1000);
    expect(readTo(`mysql -u root ${leaf}`, 200)!).toBeGreaterThan(2500); // a password flag reaches ~2,250 characters
    expect(readTo(`${leaf}\n-----BEGIN RSA PRIVATE KEY-----`, 200)).toBeUndefined();
    expect(readTo(`kind: Secret\n${leaf}`, 200)).toBeUndefined();
  });
});
