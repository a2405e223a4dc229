// A CSRF token guards a form and grants nothing, so redaction leaves the value a CSRF name gives
// (`X-CSRF-Token: …`, `<meta name="csrf-token" content="…">`, `csrftoken=…`). Attacked here: the word
// anywhere before a credential on its line (`X-CSRF-Token: abc; Authorization: Bearer …`, "the csrf
// check failed, password: …") once turned down every match after it, vendor tokens included.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { redact } from "../src/index.js";
import { SHAPE_EXAMPLES } from "./support/adversarial.js";
import { survivors } from "./support/survivors.js";
import { randomStrings } from "./support/random.js";

/** A CSRF token's value: random, as a framework makes one. */
const TOKEN = "Qm9vdHN0cmFwQ3NyZg9xK2mZp9Rt4Wx7";

/** Text that names CSRF, then something else: what may stand before a credential on its line (within the 40 characters the check reads). */
const MENTIONS = [
  "csrf ok; ",
  "the CSRF check failed, ",
  "xsrf ",
  "csrf middleware enabled. ",
  "X-CSRF-Token: 9f2c; ",
  '{"X-CSRF-Token": "9f2c", ',
  "csrftoken=9f2c; ",
  '<meta name="csrf-token" content="9f2c"> ',
  "CSRF_TRUSTED_ORIGINS=https://a.test ",
];

/** What `redact` leaves of the example `e` (one of SHAPE_EXAMPLES, the secret whole) in `text`. */
const left = (text: string, e: string) => new Set(survivors(redact(text), e, text));

describe("a CSRF word before a credential on its line", () => {
  it.each(MENTIONS)("hides no example of any shape: %j before it", (mention) => {
    for (const e of SHAPE_EXAMPLES) {
      const alone = left(e, e);
      const after = [...left(mention + e, e)].filter((piece) => !alone.has(piece));
      expect(after, `${mention}${e}`).toEqual([]);
    }
  });

  it("hides no named value (property: a mention, a name, an operator, a random value)", () => {
    const name = fc.constantFrom("password", "api_key", "token", "secret", "Authorization", "DB_PASSWORD", "client_secret", "access_token");
    const op = fc.constantFrom(": ", "=", '": "', " = ");
    const value = randomStrings(16, 40, "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789");
    fc.assert(
      // ("xsrf " then "token: …" is a CSRF token's name, left as the last test says)
      fc.property(fc.constantFrom(...MENTIONS.filter((m) => !m.endsWith("srf "))), name, op, value, (mention, n, o, v) => {
        const line = `${n}${o}${v}`;
        if (redact(line).includes(v)) return; // (not a value this name masks alone)
        expect(redact(mention + line)).not.toContain(v);
      }),
      { numRuns: 400 },
    );
  });

  it("nor does a random value that holds the word, before the next credential", () => {
    for (const key of ["Hq8vK2mZp9Rt4Wx7xsrf", "Hq8vK2mCSRFp9Rt4Wx7", "Xk9vcsrf3Yz8Lm2Qp7"]) {
      for (const sep of [":", "|", "=", "@", "!", "#", " ", "; ", ", "]) {
        for (const next of ["token: Ab3dE5gH7jK9mN2pQ4", "password=Ab3dE5gH7jK9mN2pQ4", "Authorization: Bearer Ab3dE5gH7jK9mN2pQ4"]) {
          const line = `api_key: ${key}${sep}${next}`;
          const out = redact(line);
          expect(out, line).not.toContain("Ab3dE5gH7jK9mN2pQ4");
          expect(survivors(out, key, line), line).toEqual([]);
        }
      }
    }
  });

  it("a vendor's own format is masked under a CSRF name too: it is a token wherever it stands", () => {
    const formats = SHAPE_EXAMPLES.filter((e) => /^(?:ghp_|AKIA|AIza|glpat-|xoxb-|sk-ant-|sk_live_|SG\.|hvs\.|eyJ|Xy78Q~|MTk4|0123456789abcdef0123456789abcdef-us|123456789:AA|1234567890123456\|)/.test(e));
    expect(formats).toHaveLength(15);
    for (const name of ["csrf: ", "X-CSRF-Token: ", "csrftoken=", '<meta name="csrf-token" content="', '"csrf_token": "']) {
      for (const e of formats) {
        const alone = left(e, e); // (a vendor's prefix stays: `ghp_…[REDACTED]`)
        expect([...left(name + e, e)].filter((piece) => !alone.has(piece)), name + e).toEqual([]);
      }
    }
  });

  it("a CSRF signing secret's name names a secret, not a token (round 15's review: e08d6ac left these too)", () => {
    for (const line of ['WTF_CSRF_SECRET_KEY = "h7Qm2xZ9pLk4Rw8vT3nB6yUc"', 'csrf_secret = "h7Qm2xZ9pLk4Rw8v"', "CSRF_SECRET_KEY=h7Qm2xZ9pLk4Rw8v", "XSRF_SECRET=h7Qm2xZ9pLk4Rw8v", "csrf-secret: h7Qm2xZ9pLk4Rw8v"]) {
      expect(redact(line), line).not.toContain("h7Qm2xZ9pLk4Rw8v");
    }
  });

  it("leaves the CSRF token a CSRF name gives, in the forms frameworks write it", () => {
    for (const line of [
      `<meta name="csrf-token" content="${TOKEN}">`,
      `X-CSRF-Token: ${TOKEN}`,
      `X-XSRF-TOKEN: ${TOKEN}`,
      `"csrf_token": "${TOKEN}"`,
      `csrf_token = '${TOKEN}'`,
      `{"csrfToken":"${TOKEN}"}`,
      `"csrf": "${TOKEN}"`,
      `Cookie: csrftoken=${TOKEN}`,
      `set-cookie: XSRF-TOKEN=${TOKEN}; Path=/`,
      `_csrf=${TOKEN}`,
      `<input type="hidden" name="csrfmiddlewaretoken" value="${TOKEN}">`,
      `<input type="hidden" name="_csrf" value="${TOKEN}">`,
      `headers: {'X-CSRFToken': '${TOKEN}'}`,
      `CSRF token: ${TOKEN}`,
    ]) {
      expect(redact(line), line).toBe(line);
    }
  });
});
