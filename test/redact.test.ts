// Secret redaction: the corpus with its thresholds, every shape, what must survive, linear time.
//
// The corpus (test/fixtures/secrets, one `<line>\t<kind>` a row) does not mark where the secret
// sits in a line, so recall needs a reading of each line, by shape only and never by kind
// (`secretValue` in test/support/secrets.ts, shared with the bench):
//   1. the password of `scheme://user:password@` or of `curl -u user:password`;
//   2. else, when the whole line is one `name: value` or `name = value`, that value;
//   3. else the value assigned to a token/key/secret/password name, when it has a digit or is 20+
//      characters in both cases;
//   4. else the longest token (split on whitespace, quotes and `=:,;()<>`) mixing letters and
//      digits; else the longest token.
// A positive is caught when that value no longer appears in `redact(line)`; recall is the share of
// positives caught. The reading errs against us where a line has no token mixing letters and digits:
// for `//registry.npmjs.org/:_authToken=npm_xxxxxxxxxxx` it picks the registry URL, which redaction
// rightly keeps (the token is masked), so that line counts as a miss.
// A negative is a false positive when `redact` changes it at all. Lines are checked with real
// newlines and tabs and also in the escaped form (`\n`, `\t` written out) JSON tool output carries.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { redact } from "../src/index.js";
import { REDACTED, redactor } from "../src/redact/index.js";
import { windowed } from "../src/redact/window.js";
import { adversarialSeeds, repeatTo } from "./support/adversarial.js";
import { negatives, positives, secretValue } from "./support/secrets.js";
import { completed } from "../src/redact/more.js";

// the whole catalogue, as a pass that rewrites reads it (./more.ts completes ./shapes.ts)
completed(redactor);

const { redactMany } = windowed(redactor);

const escape = (s: string) => s.replace(/\n/g, "\\n").replace(/\t/g, "\\t");

describe("the secrets corpus (test/fixtures/secrets)", () => {
  it("catches at least 97 % of the positives; recall by kind and the misses are printed", () => {
    const byKind = new Map<string, { lines: number; caught: number }>();
    const misses: string[] = [];
    for (const p of positives()) {
      const caught = !redact(p.line).includes(secretValue(p.line));
      const k = byKind.get(p.kind) ?? { lines: 0, caught: 0 };
      byKind.set(p.kind, { lines: k.lines + 1, caught: k.caught + (caught ? 1 : 0) });
      if (!caught) misses.push(`${p.kind}: ${p.escaped.slice(0, 100)}`);
    }
    const caught = [...byKind.values()].reduce((a, k) => a + k.caught, 0);
    const total = positives().length;
    const perKind = [...byKind].map(([kind, k]) => `${kind} ${k.caught}/${k.lines}`);
    console.log(
      `recall ${caught}/${total} (${((caught / total) * 100).toFixed(1)} %) over ${byKind.size} kinds:\n  ${perKind.join(", ")}\n` +
        `missed:\n  ${misses.join("\n  ")}`,
    );
    expect(caught / total).toBeGreaterThanOrEqual(0.97);
  });

  it("catches them as well in the escaped form JSON tool output carries (\\n and \\t written out)", () => {
    const caught = positives().filter((p) => !redact(p.escaped).includes(escape(secretValue(p.line))));
    expect(caught.length / positives().length).toBeGreaterThanOrEqual(0.97);
  });

  it("changes at most 3 % of the negatives, escaped or not", () => {
    const changed = negatives().filter((n) => redact(n.line) !== n.line || redact(n.escaped) !== n.escaped);
    console.log(`false positives ${changed.length}/${negatives().length}:\n  ${changed.map((n) => `${n.kind}: ${n.escaped}`).join("\n  ")}`);
    expect(changed.length / negatives().length).toBeLessThanOrEqual(0.03);
  });
});

/** Redacts `text`, checks the secret is gone and a marker stands in its place, returns the result. */
function gone(text: string, secret: string): string {
  const out = redact(text);
  expect(out, text).not.toContain(secret);
  expect(out, text).toContain(REDACTED);
  return out;
}

describe("shapes", () => {
  // Values are made up in each vendor's shape; none comes from the corpus.
  it.each([
    ["AWS access key id", "aws_access_key_id = AKIAZ7Q3R4M5N6P7W2XY", "AKIAZ7Q3R4M5N6P7W2XY"],
    ["AWS secret key", "AWS_SECRET_ACCESS_KEY=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", "Hk4Lz9Qw2Ex7Rt1Yu6Io3Pa8Sd5Fg0Hj4Kl7Zx2C"],
    ["Google API key", '"apiKey": "AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q"', "SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q"],
    ["Azure storage key", "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=lJzRc1YdHaAA2KCNJJ1tkYwF/+mKK6Ygw0NGe170Xu592euJv2wYUtBlV8z+qnlcNQ==;EndpointSuffix=core.windows.net", "lJzRc1YdHaAA2KCNJJ1tkYwF"],
    ["Azure AD client secret", "secret value: Xy78Q~a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7", "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7"],
    ["GitHub", "token ghp_R2d9Xk3mQ7vB1nZ8wL4tY6uH0cJ5fG2aP9sE here", "R2d9Xk3mQ7vB1nZ8wL4tY6uH0cJ5fG2aP9sE"],
    ["GitHub fine-grained", "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVW", "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVW"],
    ["GitLab", "PRIVATE-TOKEN: glpat-Zx81fQ2mN7pLk3vT9wRy", "Zx81fQ2mN7pLk3vT9wRy"],
    ["Slack", "xoxb-2345678901-3456789012-Zx81fQ2mN7pLk3vT9wRy4uHs", "Zx81fQ2mN7pLk3vT9wRy4uHs"],
    ["Slack webhook", "https://hooks.slack.com/services/T024BE7LD/B01ABCDEF12/aB3dE5fG7hI9jK1lM3nO5pQ7", "aB3dE5fG7hI9jK1lM3nO5pQ7"],
    ["Discord webhook", "https://discord.com/api/webhooks/123456789012345678/Abc-DEF_ghi123JKL456mno789PQR012stu345VWX678yz", "Abc-DEF_ghi123JKL456mno789PQR012stu345VWX678yz"],
    ["Discord bot token", "DISCORD=MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ.ZnCjm1XVW7vRze4b7Cq4se7kKWs", "ZnCjm1XVW7vRze4b7Cq4se7kKWs"],
    ["Telegram bot token", "bot 123456789:AAF1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q", "AAF1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q"],
    ["Stripe", "stripe listen --api-key sk_live_51H8xYzAbCdEfGhIjKlMnOpQrStUvWx", "51H8xYzAbCdEfGhIjKlMnOpQrStUvWx"],
    ["Square", "SQUARE_TOKEN=EAAAEOuLQ1p2o3i4u5y6t7r8e9w0qAzSxDcFvGbHnJmK", "EOuLQ1p2o3i4u5y6t7r8e9w0qAzSxDcFvGbHnJmK"],
    ["Twilio", "twilio api key SK0123456789abcdef0123456789abcdef", "SK0123456789abcdef0123456789abcdef"],
    ["SendGrid", "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", "TwL2iGABf9DHoTf-09kqeF8tAmbihYzrnopKc-1s5cr"],
    ["Mailchimp", "mc 0123456789abcdef0123456789abcdef-us21", "0123456789abcdef0123456789abcdef"],
    ["Anthropic", "sk-ant-api03-Zx81fQ2mN7pLk3vT9wRy4uHs6dJc0bAe-Q", "Zx81fQ2mN7pLk3vT9wRy4uHs6dJc0bAe"],
    ["OpenAI project key", "export OPENAI_API_KEY=sk-proj-Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8T3BlbkFJQr9St0Uv1Wx2Yz3", "Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8T3BlbkFJQr9St0Uv1Wx2Yz3"],
    ["an sk- key of another provider", "sk-0123456789abcdef0123456789abcdef", "0123456789abcdef0123456789abcdef"],
    ["Hugging Face", "HF_TOKEN=hf_AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh", "AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh"],
    ["npm", "//registry.npmjs.org/:_authToken=npm_AbC123dEf456GhI789jKl012MnO345pQr678", "AbC123dEf456GhI789jKl012MnO345pQr678"],
    ["Vault", "VAULT_TOKEN hvs.CAESIJlWh4K9Z2bN8tQ3xR7mY1pV5sL0dF6gH2jK4nM8", "CAESIJlWh4K9Z2bN8tQ3xR7mY1pV5sL0dF6gH2jK4nM8"],
    ["Doppler", "dp.st.dev.a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8s9T0u1V2", "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8s9T0u1V2"],
    ["Databricks", "host and dapi0123456789abcdef0123456789abcdef", "0123456789abcdef0123456789abcdef"],
    ["Sentry", "sntrys_eyJpYXQiOjE2ODczMzY1NDMuNjk4NTksInVybCI6bnVsbH0=_Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2Yz3", "Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2Yz3"],
    // vendors without an entry: a short prefix, a separator and a random body
    ["DigitalOcean (by shape)", "DIGITALOCEAN_TOKEN is dop_v1_4f9a2b7c1d8e3f6a5b0c9d2e7f4a1b8c3d6e9f2a5b8c1d4e7f0a3b6c9d2e5f8a1b", "4f9a2b7c1d8e3f6a5b0c9d2e7f4a1b8c3d6e9f2a5b8c1d4e7f0a3b6c9d2e5f8a1b"],
    ["Shopify (by shape)", "shopify: 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", "1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d"],
    ["Groq (by shape)", "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", "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8s9T0u1V2w3X4y5Z6"],
    ["New Relic (by shape)", "key NRAK-A1B2C3D4E5F6G7H8I9J0K1L2M3N", "A1B2C3D4E5F6G7H8I9J0K1L2M3N"],
    ["Google OAuth client secret (by shape)", "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", "a1B2c3D4e5F6g7H8i9J0k1L2m3N4"],
    ["age secret key (by shape)", "AGE-SECRET-KEY-1QYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQS4E7", "QYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQS4E7"],
    ["a new vendor's prefix_", "use acme_live_9fK2mQ7xZ4vB8nR1tY6wP3sL0dH5jG2c now", "9fK2mQ7xZ4vB8nR1tY6wP3sL0dH5jG2c"],
    ["40 hex digits in both cases", "sourcegraph 6d2FabeB6ADd229Bc199FabA28fD3efb57dF0bD3", "6d2FabeB6ADd229Bc199FabA28fD3efb57dF0bD3"],
  ])("vendor token: %s", (_, text, secret) => {
    gone(text, secret);
  });

  it.each([
    ["JWT", "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"],
    ["JWT without a signature", "id_token=eyJhbGciOiJub25lIn0.eyJzdWIiOiJib2IifQ.", "eyJzdWIiOiJib2IifQ"],
    ["Authorization: Bearer", "Authorization: Bearer abc123def456ghi789jkl", "abc123def456ghi789jkl"],
    ["curl -H Basic", "curl -H 'Authorization: Basic dXNlcjpwYXNzd29yZA==' https://x.example", "dXNlcjpwYXNzd29yZA=="],
    ["Authorization: token", '"Authorization": "token 9f8e7d6c5b4a3210fedcba98"', "9f8e7d6c5b4a3210fedcba98"],
    ["escaped JSON header", '{\\"Authorization\\": \\"Basic dXNlcjpwYXNzMTIz\\"}', "dXNlcjpwYXNzMTIz"],
    ["curl -u", "curl -u admin:s3cretP4ss https://x.example", "s3cretP4ss"],
    ["URL userinfo", "git push https://bob:Gh7pass9word@github.com/x/y", "Gh7pass9word"],
    ["token as URL user", "https://ghs_Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78@github.com/o/r.git", "Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78"],
    ["postgres", "DATABASE_URL=postgresql://app:Pg5ecret99@db.internal:5432/app", "Pg5ecret99"],
    ["mysql", "mysql://root:My5qlRootPw@127.0.0.1:3306/shop", "My5qlRootPw"],
    ["mongodb+srv", "mongodb+srv://admin:Mong0Pass2024@cluster0.abcde.mongodb.net/test", "Mong0Pass2024"],
    ["redis without a user", "REDIS_URL=redis://:S3cr3tRedisPass@cache:6379/0", "S3cr3tRedisPass"],
    ["amqp", "amqps://guest:R4bbitMQpw@mq:5671/", "R4bbitMQpw"],
    ["query parameter", "https://api.example.com/v1?user=1&api_key=9f8e7d6c5b4a3210&x=1", "9f8e7d6c5b4a3210"],
    ["signed URL", "https://acct.blob.core.windows.net/c/b?sv=2022-11-02&sig=Zm9vYmFyYmF6cXV4MTIz%3D", "Zm9vYmFyYmF6cXV4MTIz"],
    ["connection string", "Server=tcp:db,1433;Database=app;User ID=sa;Password=Sql5erverPw!;Encrypt=True;", "Sql5erverPw!"],
    ["env file", "DATABASE_PASSWORD=Tr0ub4dor3xyz", "Tr0ub4dor3xyz"],
    ["shell export", "export OPENAI_API_KEY='abc123XYZ789def456'", "abc123XYZ789def456"],
    ["JSON field", '{"client_secret": "9a8b7c6d5e4f3a2b1c0d"}', "9a8b7c6d5e4f3a2b1c0d"],
    ["escaped JSON field", '{\\"password\\": \\"Hunter2Pass9x\\"}', "Hunter2Pass9x"],
    ["YAML field", "  auth_token: k8Jf2mQx9Lz3", "k8Jf2mQx9Lz3"],
    ["form body", "username=bob&password=Hunter2Pass9&remember=1", "Hunter2Pass9"],
    ["Makefile", 'API_TOKEN ?= "tok3nV4lue12345"', "tok3nV4lue12345"],
    ["XML element", "<password>S3cretValue123</password>", "S3cretValue123"],
    ["XML key/value", '<add key="ClearTextPassword" value="N3wPassw0rd2024" />', "N3wPassw0rd2024"],
    ["quoted flag", '--api-key "b7f3c9e1a2d4f6b8c0e2"', "b7f3c9e1a2d4f6b8c0e2"],
    ["unquoted flag", "docker login --username bob --password Hunter2Pass9x registry.example.com", "Hunter2Pass9x"],
    ["call argument", 'os.getenv("API_TOKEN", "dafa7817-e246-48f3-91a7-e87653d587b8")', "dafa7817-e246-48f3-91a7-e87653d587b8"],
    ["cookie", "Cookie: sessionid=8f3kd92lmq7xz1vb4nr6ty0we5ui3op2; theme=dark", "8f3kd92lmq7xz1vb4nr6ty0we5ui3op2"],
    ["Kubernetes Secret", "apiVersion: v1\nkind: Secret\ndata:\n  password: cGFzc3dvcmQxMjM=\n  api: c2VjcmV0dmFsdWU=\n", "c2VjcmV0dmFsdWU="],
    ["Kubernetes Secret, escaped", "apiVersion: v1\\nkind: Secret\\ndata:\\n\\t.dockercfg: |\\n\\t\\teyJhdXRocyI6eyJyZWcuaW8iOnt9fX0=\\n", "eyJhdXRocyI6eyJyZWcuaW8iOnt9fX0="],
  ])("%s", (_, text, secret) => {
    gone(text, secret);
  });

  it("keeps a documented vendor prefix of a long token, masks a short one and any other value whole", () => {
    expect(gone("key sk-proj-AbCdEfGh1234567890T3BlbkFJxYz0987654321qwerty done", "AbCdEfGh1234567890T3BlbkFJ")).toBe("key sk-proj-…[REDACTED] done");
    expect(gone("xoxb-2345678901-3456789012-Zx81fQ2mN7pLk3vT9wRy4uHs", "Zx81fQ2mN7pLk3vT9wRy4uHs")).toBe("xoxb-…[REDACTED]");
    expect(gone('AWS_ACCESS_KEY_ID="AKIAZ7Q3R4M5N6P7W2XY"', "AKIAZ7Q3R4M5N6P7W2XY")).toBe('AWS_ACCESS_KEY_ID="AKIA…[REDACTED]"');
    expect(gone("password: Hunter2Pass9", "Hunter2Pass9")).toBe("password: [REDACTED]");
    // a long value without a documented vendor prefix keeps nothing of itself
    expect(gone("HEROKU_API_KEY=5eb4223e-5008-46e5-be67-c7b8f2732305", "5eb4")).toBe("HEROKU_API_KEY=[REDACTED]");
  });

  it("turns a private key block into one marker: PEM, escaped in JSON, cut off, PGP and OpenSSH", () => {
    const key = "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA1c3Rh\nbW9yZSBrZXkgbWF0ZXJpYWw=\n-----END RSA PRIVATE KEY-----";
    expect(redact(`before\n${key}\nafter`)).toBe("before\n[REDACTED PRIVATE KEY]\nafter");
    expect(redact(`{"private_key": "${key.replace(/\n/g, "\\n")}\\n"}`)).toBe('{"private_key": "[REDACTED PRIVATE KEY]\\n"}');
    expect(redact("-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg\nkqhkiG9w0\nthe output stopped here")).toBe("[REDACTED PRIVATE KEY]\nthe output stopped here");
    expect(redact("-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC[output truncated]")).toBe("[REDACTED PRIVATE KEY][output truncated]");
    // a cut-off block ends at its body, not at the END of a later block
    expect(redact(`-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg\nnotes in between\n${key}`)).toBe("[REDACTED PRIVATE KEY]\nnotes in between\n[REDACTED PRIVATE KEY]");
    // a cut-off body stops at the first line that is not base64: a token after it is still found
    expect(redact("-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg\nghp_R2d9Xk3mQ7vB1nZ8wL4tY6uH0cJ5fG2aP9sE")).toBe("[REDACTED PRIVATE KEY]\nghp_…[REDACTED]");
    expect(redact("-----BEGIN PGP PRIVATE KEY BLOCK-----\nlQWGBGSVV4YBDAC\n=8xQN\n-----END PGP PRIVATE KEY BLOCK-----")).toBe("[REDACTED PRIVATE KEY]");
    expect(redact("a\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjE\n-----END OPENSSH PRIVATE KEY-----\nb")).toBe("a\n[REDACTED PRIVATE KEY]\nb");
    // a public key or certificate is not a secret
    const cert = "-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBa\n-----END CERTIFICATE-----";
    expect(redact(cert)).toBe(cert);
  });

  it("ends a command line with its text: a password flag in the next text of a batch is not its", () => {
    const texts = ["docker login -u 'ns/oracleidentitycloudservice/a@b.c'", "-p '{8fQz)Lm2<Wv9}T' next", "mysql -h db -u root", "-pS3cretPassw0rd9", "sshpass", "-p Tr0ub4dor9xQ ssh"];
    expect(redactMany(texts)).toEqual(texts.map(redact));
    expect(redactMany(texts)).toEqual(texts);
  });

  it("redacts many texts in one batch exactly as one by one", () => {
    const texts = ["password: Hunter2Pass9", "plain text", "token ghp_R2d9Xk3mQ7vB1nZ8wL4tY6uH0cJ5fG2aP9sE", "apiVersion: v1\nkind: Secret\ndata:\n  a: YWRtaW4xMjM=", "  b: YWRtaW4xMjM=", "password:"];
    expect(redactMany(texts)).toEqual(texts.map(redact));
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 60 }), { maxLength: 8 }), fc.array(fc.constantFrom(...texts), { maxLength: 4 }), (random, known) => {
        const all = [...random, ...known];
        expect(redactMany(all)).toEqual(all.map(redact));
      }),
      { numRuns: 200 },
    );
  });
});

describe("what must survive", () => {
  it.each([
    ["a UUID", '"uuid": "abb8e681-7984-49d8-8890-f4a2b130c894", "sessionId": "d6e0bada-1959-4eec-a9d2-0bfade768d8f"'],
    ["a git SHA", "commit 4c232b5014f7618360bd992b4c489cb055881c6b"],
    ["a SHA-256", "sha256:4c232b5014f7618360bd992b4c489cb055881c6b4c232b5014f7618360bd992b"],
    ["an image digest", "image: ghcr.io/org/app@sha256:4c232b5014f7618360bd992b4c489cb055881c6b4c232b5014f7618360bd992b"],
    ["a lockfile integrity hash", "resolution: {integrity: sha512-F7HZGBeN9I0/AuuJS5PwcD8xayx5ri5GhjYUDBEVYUkexyA/giwbDNjRVrxSezE3T250OU2K/wp/ltWx3UOefg==}"],
    ["a subresource integrity hash", 'integrity="sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC"'],
    ["a go.sum hash", "github.com/h2non/filetype v1.1.3 h1:FKkx9QbD7HR/zjK1Ia5XiBsq9zdLi5Kf3zGyFTAFkGg="],
    ["a tool call id", '"tool_call_id": "call_5O339epJ3rKjEal3Kuvpj9bM"'],
    ["a tool use id", '{"type": "tool_use", "id": "toolu_017Q5Sr8KaSgowYhbKXBnfV2"}'],
    ["a server tool use id", '"id": "srvtoolu_01ABCdefGHIjklMNOpqrSTUvw"'],
    ["a message id", '"id": "msg_0167kgZUrgcT7dg7uZK7hVSg", "model": "claude-opus-4-6"'],
    ["a request id", '"requestId": "req_011CY1DV6ZcyGeWGTb4kSw2L"'],
    ["a completion id", '"id": "chatcmpl-D8Z5oo6uDh67AD85p73ksdT1KxhE0", "system_fingerprint": "fp_de604bd877"'],
    ["Responses API ids", "resp_68a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7 fc_68a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7 rs_68a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5"],
    ["a file path", "/home/user/projects/spotter/lib/spotter_web/live/session_live.ex:154:23"],
    ["a Claude Code project path", "/tmp/claude-1000/-home-USER-projects-spotter-worktrees-spotter-a0y/tasks/b7b23b2.output"],
    ["a hashed bundle name", "dist/assets/main.7e2537a4b5c8d9e0f1a2.js"],
    ["a package path", "node_modules/.pnpm/@types+node@20.11.5/node_modules/@types/node/index.d.ts"],
    ["version strings", "node v20.20.2, vitest 4.1.12, wrangler 4.86.0, cryptography-42.0.5-cp39-abi3-manylinux_2_28_x86_64.whl"],
    ["a long test name", "test_redact_catches_secrets_in_every_shape_2024"],
    ["a placeholder", "password: ${DB_PASSWORD} api_key = your-api-key-here token: <your-token> AUTH_SECRET=changeme"],
    ["code reading a secret", "const token = process.env.GITHUB_TOKEN; password = settings.DATABASE_PASSWORD"],
    ["code making a secret", "token = Base.url_encode64(:crypto.strong_rand_bytes(24), padding: false)"],
    ["a call", "const tokenizer = getTokenizer(model)"],
    ["token counts", '"usage": {"prompt_tokens": 1234, "completion_tokens": 5678, "total_tokens": 6912}, max_tokens=4096'],
    ["a URL of an endpoint", "token_url: https://oauth2.googleapis.com/token"],
    ["a path to a secret", "password_file=/run/secrets/db_password"],
    ["prose", "Authorization: required for admin endpoints; the bearer of this token; passwordless login"],
    ["a public key", 'public_key = "9Cnzj4p4WGeKLs1Pt8QuKUpRKfFLfRYC9AIKjbJTWit"'],
    ["a Stripe publishable key", "pk_live_51H8xYzAbCdEfGhIjKlMnOpQrStUvWx"],
    ["a user and group id", "docker run -u 1000:1000 node:20"],
    ["a Secret manifest's plain fields", "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db-user-pass\n  namespace: default\ntype: Opaque"],
    ["a ConfigMap", "apiVersion: v1\nkind: ConfigMap\ndata:\n  mode: cHJvZHVjdGlvbjE="],
  ])("%s", (_, text) => {
    expect(redact(text)).toBe(text);
  });
});

// Prefixes of every shape, and the characters its repeats consume: the material of backtracking.
const seeds = adversarialSeeds();

describe("linear time", () => {
  const runs = ["-", "_", ".", " ", "\n", "=", ":", "/", "a", "0", '"', "\\n", "@", "|", "~", "%"];
  const secret = "ghp_R2d9Xk3mQ7vB1nZ8wL4tY6uH0cJ5fG2aP9sE";
  const planted = "ghp_Wq7Lm3Zx9Rt2Vb6Nc4Hy8Pk1Sd5Fj0Gu3Ea";

  /** The fastest of two runs, in ms: load on the machine only ever adds time. */
  const ms = (text: string) => {
    let best = Infinity;
    for (let i = 0; i < 2; i++) {
      const t = performance.now();
      redact(text);
      best = Math.min(best, performance.now() - t);
    }
    return best;
  };
  /**
   * How work grows from 256 KB to 1 MB of `unit` repeated: 4 when linear, 16 when quadratic. A ratio,
   * never a time: retried when the machine was busy (a quadratic input never gets under 8).
   */
  const growth = (unit: string) => {
    let ratio = Infinity;
    for (let attempt = 0; attempt < 3 && ratio >= 8; attempt++) {
      ratio = Math.min(ratio, ms(repeatTo(unit, 1 << 20)) / Math.max(ms(repeatTo(unit, 1 << 18)), 2));
    }
    return ratio;
  };

  // (the xoxb units: round 8's vendor-token finder looked for its next run of base64 from the start of each
  // call, to the text's end where none is: 0.1 MB/s on 1 MB of Slack-like tokens; the marker units: round
  // 9's first reading of a value on through markers, to the text's end at each match its checks refused)
  // (the URL unit: a value read on through markers looked for a letter before each marker with a pattern
  // anchored at the end, tried at every start of the value: CI's property found it, round 14)
  it.each(["-eyJ", "eyJhbGciOiJIUzI1NiJ9-", "eyJ-", "xoxb-2345678901@", "\nxoxb-2345678901", `${"a".repeat(24)}[REDACTED]`, "password=abcd[REDACTED]", "password=abcd[REDACTED ", "postgres://user:Hunter2Pass9@db.example.com:https://x.test/?token="])("work grows linearly on %j repeated (was quadratic)", (unit) => {
    expect(growth(unit)).toBeLessThan(8);
  });

  it("work grows linearly on 1 MB of any shape's prefix, alone, beside a separator, or paired with another", () => {
    const unit = fc.oneof(
      fc.constantFrom(...seeds),
      fc.tuple(fc.constantFrom(...seeds), fc.constantFrom(...runs), fc.boolean()).map(([s, r, first]) => (first ? r + s : s + r)),
      fc.tuple(fc.constantFrom(...seeds), fc.constantFrom(...seeds)).map(([a, b]) => a + b),
    );
    fc.assert(
      fc.property(unit, (u) => {
        expect(growth(u), JSON.stringify(u)).toBeLessThan(8);
      }),
      { numRuns: 60 },
    );
  });

  it("finishes on 100 KB of cut-off key blocks before one END, each block one marker", () => {
    const block = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg\n";
    const text = `${block.repeat(Math.ceil(100_000 / block.length))}-----END PRIVATE KEY-----`;
    const out = redact(text);
    expect(out).not.toContain("MIIE");
    expect(out.match(/\[REDACTED PRIVATE KEY\]/g)?.length).toBe(Math.ceil(100_000 / block.length));
  });

  it("finishes on 100 KB strings mixing the seeds at random, and still finds a secret planted in them", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...seeds), { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 40 }), (parts, run) => {
        const unit = parts.map((p) => p.repeat(run)).join("");
        const text = repeatTo(unit, 100_000);
        // A token no seed holds: the seeds include `secret` itself, and glued into one 100 KB word
        // ("ghp_…a" repeated) it is no token any more, so the filler would carry it whole.
        const out = redact(`${text}\n${planted}\n${text}`);
        expect(out).not.toContain(planted.slice(4));
      }),
      { numRuns: 40 },
    );
  });
});

describe("bad input", () => {
  /** Any UTF-16 code unit: lone surrogates, NUL and control characters included. */
  const unit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
  const anyString = fc.oneof(fc.string({ unit, maxLength: 300 }), fc.string({ unit: "binary", maxLength: 300 }), fc.string({ maxLength: 300 }));

  it("never throws on any string, and returns one no longer than the input and its markers", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(anyString, fc.constantFrom(...seeds)), { maxLength: 8 }), (parts) => {
        const text = parts.join("");
        const out = redact(text);
        expect(typeof out).toBe("string");
        const markers = out.match(/\[REDACTED(?: PRIVATE KEY)?\]/g)?.length ?? 0;
        expect(out.length).toBeLessThanOrEqual(text.length + 24 * markers);
        expect(redactMany([text, text])).toEqual([out, out]);
      }),
      { numRuns: 500 },
    );
  });

  it("returns a 32 MB line of one character and a line of NUL bytes", () => {
    const line = "a".repeat(32 << 20);
    expect(redact(line)).toBe(line);
    const nul = "\u0000".repeat(1 << 20);
    expect(redact(nul)).toBe(nul);
  });
});
