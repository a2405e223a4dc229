// Masking gives nothing of a secret away (issue 24 item 7): a marker may keep a public vendor prefix
// that the vendor documents (`ghp_`, `sk-ant-api03-`, `AKIA`), never a character of the random body
// or of a password. Attack tests: the corpus of real positives, and generated secrets in every context.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { redact } from "../src/index.js";
import { redactMessage, redactor as inUse } from "../src/redact/index.js";
import { loadHoldout } from "../bench/holdout.js";
import { positives, secretValue } from "./support/secrets.js";
import { completed } from "../src/redact/more.js";

// the whole catalogue, as a pass that rewrites reads it (./more.ts completes ./shapes.ts)
completed(inUse);

/** Prefixes their vendors document as the fixed start of a token: what a marker may keep. */
const DOCUMENTED = [
  "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "gldt-", "glrt-", "glcbt-", "glimt-", "glptt-", "glagent-", "gloas-",
  "xoxb-", "xoxp-", "xoxa-", "xoxe-", "xoxs-", "xoxo-", "xoxr-", "xoxe.xoxp-", "xoxe.xoxb-", "xapp-",
  "sk-ant-api03-", "sk-ant-admin01-", "sk-proj-", "sk-svcacct-", "sk-admin-", "sk-", "sk_live_", "sk_test_", "rk_live_", "rk_test_",
  "sk_", "rk_", "api_", "sdk-", "access_", "sntrys_", "sntryu_", "AKIA", "ASIA", "AIza", "hf_", "npm_", "pypi-", "SG.", "ya29.", "hvs.", "glc_", "xai-", "gsk_", "dop_v1_", "shpat_", "sq0atp-", "sq0csp-",
  "glft-", "glsoat-", "glsa_", "glc_", "HRKU-", "whsec_", "doo_v1_", "dor_v1_", "shpss_", "shpca_", "shppa_", "figd_", "hvb.",
];

/** What each `…[REDACTED]` marker of `out` keeps: the run of token characters before its `…`. */
function kept(out: string): string[] {
  return [...out.matchAll(/([\w.+/=~-]*)…\[REDACTED\]/g)].map((m) => m[1]);
}

/** The 3-character pieces of `body` found in `out` that `rest` (the text around the secret) does not explain. */
function leaked(out: string, body: string, rest: string): string[] {
  const found: string[] = [];
  for (let i = 0; i + 3 <= body.length; i++) {
    const piece = body.slice(i, i + 3);
    if (out.includes(piece) && !rest.includes(piece)) found.push(piece);
  }
  return found;
}

/** A marker and the documented prefix it keeps, if any. */
const MARKER = new RegExp(`(?:${DOCUMENTED.map((d) => d.replace(/[.+]/g, "\\$&")).join("|")})…\\[REDACTED\\]|…?\\[REDACTED(?: PRIVATE KEY)?\\]`, "g");
/** `out` with its markers cut out: their own letters ("DAC" of REDACTED) and a public prefix are no piece of a secret. */
const markersOut = (out: string) => out.replace(MARKER, "\u0000");

/** `value` less the longest documented prefix it starts with. */
const bodyOf = (value: string) => value.slice(Math.max(0, ...DOCUMENTED.filter((p) => value.startsWith(p)).map((p) => p.length)));

describe("masking gives nothing of a secret away", () => {
  it("every marker over the corpus keeps a documented vendor prefix or nothing", () => {
    const bad: string[] = [];
    for (const p of positives()) for (const k of kept(redact(p.line))) if (!DOCUMENTED.some((d) => k.endsWith(d))) bad.push(`${p.kind}: ${k}…`);
    expect(bad).toEqual([]);
  });

  it("no 3 characters of a caught secret's body survive in the corpus", () => {
    const bad: string[] = [];
    for (const p of positives()) {
      const value = secretValue(p.line);
      const out = redact(p.line);
      // a miss is counted by test/redact.test.ts; a reading of more than one token (a URL, Facebook's
      // public app id and its secret) says nothing of where the secret starts
      if (out.includes(value) || !/^[\w.+/~-]+=*$/.test(value)) continue;
      const pieces = leaked(markersOut(out), bodyOf(value), p.line.split(value).join("\u0000"));
      if (pieces.length) bad.push(`${p.kind}: ${pieces.join(" ")} in ${out.slice(0, 120)}`);
    }
    expect(bad).toEqual([]);
  });

  it("no 3 characters of a caught secret's body survive in the holdout corpus (dev lines named; check split counted only)", () => {
    const leaks = { dev: [] as string[], check: 0 };
    for (const p of loadHoldout().positives) {
      const out = redact(p.line);
      if (out.includes(p.secret)) continue; // a miss, counted by test/holdout-redaction.test.ts
      const pieces = leaked(markersOut(out), bodyOf(p.secret), p.line.split(p.secret).join("\u0000"));
      const badPrefix = kept(out).some((k) => !DOCUMENTED.some((d) => k.endsWith(d)));
      if (!pieces.length && !badPrefix) continue;
      if (p.split === "dev") leaks.dev.push(`${p.kind}: ${pieces.join(" ")} in ${out.slice(0, 120)}`);
      else leaks.check++;
    }
    expect(leaks).toEqual({ dev: [], check: 0 });
  });

  const body = fc.stringMatching(/^[A-Za-z0-9]{24,48}$/).filter((b) => /\d/.test(b) && /[a-z]/.test(b) && /[A-Z]/.test(b));
  const contexts = [
    (v: string) => `AWS_SECRET_ACCESS_KEY=${v}`,
    (v: string) => `export GITHUB_TOKEN="${v}"`,
    (v: string) => `{"api_key": "${v}"}`,
    (v: string) => `curl -H "Authorization: Bearer ${v}" https://api.example.com`,
    (v: string) => `DB_PASSWORD=${v}`,
    (v: string) => `the token is ${v} now`,
  ];

  it("generated secrets, with a documented prefix or none, in any context: the marker keeps at most the prefix", () => {
    fc.assert(
      fc.property(body, fc.constantFrom("", "ghp_", "sk-proj-", "xoxb-", "glpat-", "sk_live_", "npm_", "wJ", "5eb4-", "Ab1-"), fc.constantFrom(...contexts), (b, prefix, context) => {
        const value = prefix + b;
        const text = context(value);
        const out = redact(text);
        if (out.includes(value)) return; // not every context names a secret for every value
        const rest = text.split(value).join("\u0000");
        expect(leaked(markersOut(out), bodyOf(value), rest), out).toEqual([]);
        for (const k of kept(out)) expect(DOCUMENTED.some((d) => k.endsWith(d)), out).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it("error messages mask runs whole too", () => {
    const out = redactMessage("401: invalid key Zq81fQ2mN7pLk3vT9wRy4uHs0Kd2Pq");
    expect(out).toBe("401: invalid key [REDACTED]");
  });

  it("a token right after a JSON escape is masked without breaking the JSON or keeping its first letter", () => {
    for (const text of ['{"note":"done\\nfoo_wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx"}', '{"api_key": "\\u0041wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx"}', '{"t":"a\\\\nghp_R2d9Xk3mQ7vB1nZ8wL4tY6uH0cJ5fG2aP9sE"}']) {
      const out = redact(text);
      expect(() => JSON.parse(out), out).not.toThrow();
      expect(out).not.toMatch(/wWPw|R2d9/);
      expect(out).toContain("[REDACTED]");
    }
    expect(redact('{"note":"done\\nfoo_wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx"}')).toBe('{"note":"done\\n[REDACTED]"}');
  });

  it("the reported examples: an assigned AWS secret and a UUID key keep nothing, a GitHub token its ghp_", () => {
    expect(redact("AWS_SECRET_ACCESS_KEY=wJ8rXUtnFEMI/K7MDENG/bPxRfiCYq2Lw9Kd3Zx1a")).toBe("AWS_SECRET_ACCESS_KEY=[REDACTED]");
    expect(redact("HEROKU_API_KEY=5eb4223e-5008-46e5-be67-c7b8f2732305")).toBe("HEROKU_API_KEY=[REDACTED]");
    expect(redact("GITHUB_TOKEN=ghp_R2d9Xk3mQ7vB1nZ8wL4tY6uH0cJ5fG2aP9sE")).toBe("GITHUB_TOKEN=ghp_…[REDACTED]");
  });
});
