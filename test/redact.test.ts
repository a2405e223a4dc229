// Secret redaction: the corpus with its thresholds, every shape, what must survive, linear time.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { redact } from "../src/index.js";
import { negatives, positives, secretValue } from "./support/secrets.js";

describe("the secrets corpus (../shared/fixtures/secrets)", () => {
  it("catches at least 97 % of the positives, by kind", () => {
    const byKind = new Map<string, [number, number]>();
    const misses: string[] = [];
    for (const p of positives()) {
      const caught = !redact(p.line).includes(secretValue(p.line));
      const [k, n] = byKind.get(p.kind) ?? [0, 0];
      byKind.set(p.kind, [k + (caught ? 1 : 0), n + 1]);
      if (!caught) misses.push(`${p.kind}: ${p.escaped.slice(0, 90)}`);
    }
    const caught = [...byKind.values()].reduce((a, [k]) => a + k, 0);
    const total = positives().length;
    console.log(`recall ${caught}/${total} (${((caught / total) * 100).toFixed(1)} %); missed:\n  ${misses.join("\n  ")}`);
    expect(caught / total).toBeGreaterThanOrEqual(0.97);
  });

  it("also in the escaped form JSON tool output carries (\\n and \\t written out)", () => {
    const missed = positives().filter((p) => redact(p.escaped).includes(secretValue(p.line).replace(/\n/g, "\\n").replace(/\t/g, "\\t")));
    expect(missed.length / positives().length).toBeLessThanOrEqual(0.03);
  });

  it("changes at most 3 % of the negatives", () => {
    const changed = negatives().filter((n) => redact(n.line) !== n.line);
    console.log(`false positives ${changed.length}/${negatives().length}: ${changed.map((n) => n.kind).join(", ")}`);
    expect(changed.length / negatives().length).toBeLessThanOrEqual(0.03);
  });
});

describe("shapes", () => {
  const gone = (text: string, secret: string) => {
    const r = redact(text);
    expect(r).not.toContain(secret);
    expect(r).toContain("[REDACTED");
    return r;
  };

  it("keeps a vendor prefix of a long token, masks a short one whole", () => {
    expect(gone("key sk-proj-AbCdEfGh1234567890T3BlbkFJxYz0987654321qwerty done", "AbCdEfGh1234567890T3BlbkFJ")).toBe("key sk-proj-…[REDACTED] done");
    expect(gone('AWS_ACCESS_KEY_ID="AKIAIOSFODNN7EXAMPL3"', "AKIAIOSFODNN7EXAMPL3")).toBe('AWS_ACCESS_KEY_ID="[REDACTED]"');
  });

  it.each([
    ["GitHub", "token ghp_16C7e42F292c6912E7710c838347Ae178B4a here", "ghp_16C7e42F292c6912E7710c838347Ae178B4a"],
    ["GitLab", "glpat-xK9vQ2mZ8rT4wY6uP3sA", "xK9vQ2mZ8rT4wY6uP3sA"],
    ["Slack", "xoxb-1234567890-0987654321-AbCdEfGhIjKlMnOpQrStUv", "AbCdEfGhIjKlMnOpQrStUv"],
    ["Anthropic", "sk-ant-api03-Zx81fQ2mN7pLk3vT9wRy4uHs6dJc0bAe-Q", "Zx81fQ2mN7pLk3vT9wRy4uHs6dJc0bAe"],
    ["Stripe", "sk_live_4eC39HqLyjWDarjtT1zdp7dc", "4eC39HqLyjWDarjtT1zdp7dc"],
    ["Google", "AIzaSyDdI0hCZtE6vySjMm-WEfRq3CPzqKqqsHI", "SyDdI0hCZtE6vySjMm-WEfRq3CPzqKqqsHI"],
    ["a new vendor's prefix_ shape", "use acme_live_9fK2mQ7xZ4vB8nR1tY6wP3sL0dH5jG2c now", "9fK2mQ7xZ4vB8nR1tY6wP3sL0dH5jG2c"],
    ["JWT", "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"],
    ["Authorization header", "Authorization: Bearer abc123def456ghi789jkl", "abc123def456ghi789jkl"],
    ["Basic header", "-H 'Authorization: Basic dXNlcjpwYXNzd29yZDEyMw=='", "dXNlcjpwYXNzd29yZDEyMw=="],
    ["curl -u", "curl -u admin:s3cretP4ss https://x.example", "s3cretP4ss"],
    ["URL userinfo", "postgres://app:Pg5ecret99@db.internal:5432/app", "Pg5ecret99"],
    ["broker URL", "amqp://guest:R4bbitMQpw@mq:5672/", "R4bbitMQpw"],
    ["query parameter", "https://api.example.com/v1?user=1&api_key=9f8e7d6c5b4a3210&x=1", "9f8e7d6c5b4a3210"],
    ["env file", "DATABASE_PASSWORD=Tr0ub4dor3xyz", "Tr0ub4dor3xyz"],
    ["shell export", "export OPENAI_API_KEY='abc123XYZ789def456'", "abc123XYZ789def456"],
    ["JSON field", '{"client_secret": "9a8b7c6d5e4f3a2b1c0d"}', "9a8b7c6d5e4f3a2b1c0d"],
    ["YAML field", "  auth_token: k8Jf2mQx9Lz3", "k8Jf2mQx9Lz3"],
    ["form body", "username=bob&password=Hunter2Pass9&remember=1", "Hunter2Pass9"],
    ["Makefile", 'API_TOKEN ?= "tok3nV4lue12345"', "tok3nV4lue12345"],
    ["CLI flag", '--api-key "b7f3c9e1a2d4f6b8c0e2"', "b7f3c9e1a2d4f6b8c0e2"],
    ["npmrc", "//registry.npmjs.org/:_authToken=npm_AbC123dEf456GhI789jKl012MnO345pQr678", "npm_AbC123dEf456GhI789jKl012MnO345pQr678"],
    ["Kubernetes Secret", "apiVersion: v1\nkind: Secret\ndata:\n  password: cGFzc3dvcmQxMjM=\n  api: c2VjcmV0dmFsdWU=\n", "c2VjcmV0dmFsdWU="],
  ])("%s", (_, text, secret) => {
    gone(text, secret);
  });

  it("turns a private key block into one marker, even when it is cut off", () => {
    const key = "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA1c3Rh\nbW9yZSBrZXkgbWF0ZXJpYWw=\n-----END RSA PRIVATE KEY-----";
    expect(redact(`before\n${key}\nafter`)).toBe("before\n[REDACTED PRIVATE KEY]\nafter");
    expect(redact(`a ${key.replace(/\n/g, "\\n")} b`)).toBe("a [REDACTED PRIVATE KEY] b");
    expect(redact("-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg\nkqhkiG9w0\nthe output stopped here")).toBe("[REDACTED PRIVATE KEY] output stopped here");
  });
});

describe("what must survive", () => {
  it.each([
    "3f2504e0-4f89-11d3-9a0c-0305e82c3301",
    "commit 4c232b5014f7618360bd992b4c489cb055881c6b",
    "resolution: {integrity: sha512-F7HZGBeN9I0/AuuJS5PwcD8xayx5ri5GhjYUDBEVYUkexyA/giwbDNjRVrxSezE3T250OU2K/wp/ltWx3UOefg==}",
    "github.com/h2non/filetype v1.1.3 h1:FKkx9QbD7HR/zjK1Ia5XiBsq9zdLi5Kf3zGyFTAFkGg=",
    '"tool_call_id": "call_5O339epJ3rKjEal3Kuvpj9bM"',
    '{"type": "tool_use", "id": "toolu_017Q5Sr8KaSgowYhbKXBnfV2"}',
    '"id": "chatcmpl-D8Z5oo6uDh67AD85p73ksdT1KxhE0"',
    "/home/user/projects/spotter/lib/spotter_web/live/session_live.ex:154:23",
    "node v20.20.2, vitest 4.1.12, wrangler 4.86.0",
    "password: ${DB_PASSWORD}",
    "api_key = your-api-key-here",
    "const tokenizer = getTokenizer(model)",
  ])("%s", (text) => {
    expect(redact(text)).toBe(text);
  });
});

describe("linear time", () => {
  const seeds = ["sk-", "ghp_", "eyJ", "-----BEGIN PRIVATE KEY-----", "password=", "://a:", "a", "aB3", " ", '"', "key: ", "Bearer ", "-u ", "a_", "0123456789abcdef", "1234567890|", "x".repeat(30) + "_"];
  it("finishes on 100 KB adversarial strings, each seed repeated or randomly mixed", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...seeds), { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 50 }), (parts, run) => {
        const unit = parts.map((p) => p.repeat(run)).join("");
        const text = unit.repeat(Math.ceil(100_000 / unit.length)).slice(0, 100_000);
        const out = redact(text);
        // It finished; and what it wrote is no longer than the input plus its markers.
        expect(out.length).toBeLessThanOrEqual(text.length + 40 * (out.match(/REDACTED/g)?.length ?? 0));
      }),
      { numRuns: 60 },
    );
  });
});
