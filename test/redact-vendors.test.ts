// Vendors as families (issue 26 item 4): bare tokens in each vendor's documented format (prefix,
// alphabet, length; sources in src/redact/more.ts and docs/NOTES.md), masked whole wherever they
// stand, keeping at most the documented prefix. Every value is made up here in that format.
import { describe, expect, it } from "vitest";
import { redact } from "../src/index.js";

const TOKENS: [vendor: string, token: string][] = [
  ["Grafana service account", "glsa_Qm7vX2pL9wR4tZ8kYp3NmW5rTx1Bc6Dv_4f9a2c7e"],
  ["Heroku", "HRKU-AAq8Vd2LmXz4Rt7Yu1Io3Pa8Sd5Fg0Hj4Kl7Zx2Cw9Q8Vd2LmXz4Rt7Yu1Io3"],
  ["Stripe/Svix webhook secret", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"],
  ["GitLab feed token", "glft-Zx81fQ2mN7pLk3vT9wRy"],
  ["OpenAI project key, bare (as long as today's)", "sk-proj-Hk4Lz9Qw2Ex7Rt1Yu6Io3Pa8Sd5Fg0Hj4Kl7Zx2Cw9q8Vd2LmXz4Rt7Yu1Io3Pa8Sd5Fg0Hj4Kl7-Vb3Nm8Qw1Er5Ty9Ui2Op6As0Df4Gh7Jk"],
  ["DigitalOcean", "dop_v1_5f2e8a91c3b7d4e6f0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3"],
  ["Shopify access token", "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"],
  ["Shopify app secret", "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"],
  ["Figma", "figd_Qm7vX2pL9wR4tZ8kYp3NmW5rTx1Bc6Dv-Hk4Lz9Qw2Ex7"],
  ["npm", "npm_Qm7vX2pL9wR4tZ8kYp3NmW5rTx1Bc6Dv4f9a"],
  ["Netlify", "nfp_Qm7vX2pL9wR4tZ8kYp3NmW5rTx1Bc6Dv4f9a"],
  ["Mailgun", "key-5f2e8a91c3b7d4e6f0a1b2c3d4e5f6a7"],
  ["Square", "EAAAlZq8Vd2LmXz4Rt7Yu1Io3Pa8Sd5Fg0Hj4Kl7Zx2Cw9Q8Vd2LmXz4Rt7Yu1Io3Pa8"],
  ["Databricks", "dapi5f2e8a91c3b7d4e6f0a1b2c3d4e5f6a7"],
  ["Terraform Cloud", "Xk9fQ2mN7pLw3v.atlasv1.Qm7vX2pL9wR4tZ8kYp3NmW5rTx1Bc6DvHk4Lz9Qw2Ex7Rt1Yu6Io3Pa8Sd5Fg0Hj4Kl7Zx2C"],
  ["Twilio API key", "SK5f2e8a91c3b7d4e6f0a1b2c3d4e5f6a7"],
  ["NuGet", "oy2k3fq7zw8lp2xvn7rty4ck3fq7zw8lp2xvn7rty4cabd"],
  ["Doppler", "dp.pt.Qm7vX2pL9wR4tZ8kYp3NmW5rTx1Bc6DvHk4Lz9Qw2Ex7"],
];

describe("vendor tokens standing bare", () => {
  it.each(TOKENS)("%s", (_, token) => {
    for (const text of [`the value ${token} ok`, `export CFG=${token}`, `{"v": "${token}"}`]) {
      const out = redact(text);
      const body = token.slice(8);
      for (let i = 0; i + 4 <= body.length; i++) expect(out, out).not.toContain(body.slice(i, i + 4));
    }
  });
});

// A vendor's own format is a token under any name, an id's too (round 15's fuzz: the generic prefixed
// rule, which an id's name turns down, read these two: `id: github_pat_…` was left in clear).
describe("a vendor's format under an id's name", () => {
  const formats: [vendor: string, token: string][] = [
    // GitHub's fine-grained token: github_pat_, 22 letters and digits, _, 59 more
    ["GitHub fine-grained", "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"],
    // npm's: npm_ and 36 letters and digits
    ["npm", "npm_Qm7vX2pL9wR4tZ8kYp3NmW5rTx1Bc6Dv4f9a"],
  ];
  it.each(formats)("%s", (_, token) => {
    for (const text of [`id: ${token}`, `request_id=${token}`, `{"checksum": "${token}"}`, `"x": "${token}"`]) {
      const out = redact(text);
      const body = token.slice(11);
      for (let i = 0; i + 4 <= body.length; i++) expect(out, text).not.toContain(body.slice(i, i + 4));
    }
  });
});
