// Precision (issue 26 item 5): identifiers in code, documentation placeholders and public values an
// agent needs intact are left alone unless a credential's name points at them. Made up here in each
// format; none comes from a scanner's tests.
import { describe, expect, it } from "vitest";
import { redact } from "../src/index.js";

const keeps = (_: string, text: string) => expect(redact(text)).toBe(text);

describe("identifiers in code", () => {
  it.each([
    ["a constant naming an OID", 'pub const SN_id_Gost28147_89_None_KeyMeshing: &str = "id-Gost28147-89-None-KeyMeshing";'],
    ["a WebAuthn credential id", '{"credentialId": "B9mTcFSck2xLq7Wv0pNd3RkYt5Zc8Hj1GfUe4Ia6Mo2Qs9Xb", "type": "public-key"}'],
    ["a React key", '<Row key="64f1c2a9b3e5d7f8a1c0b2d4" item={row} />'],
    ["a UUID under key", '{"key": "3f2b8c1e-9d4a-4b7e-a6c5-1e2f3a4b5c6d", "value": 1}'],
    ["cf-ray", "cf-ray: 8a1b2c3d4e5f6a7b-SJC"],
    ["a CI cache key", "Cache restored from key: node-cache-Linux-x64-npm-5f2e8a91c3b7d4e6f0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3"],
    ["a request id", "x-request-id: req_7Hc2kLm9Pq4Rs1Tv6Wx3Yz8"],
    ["a trace id", "traceparent: 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"],
    ["a git SHA", "HEAD is now at 9fceb02d0ae598e95dc970b74767f19372d61af8 fix"],
  ])("%s", keeps);
});

describe("documentation placeholders", () => {
  it.each([
    ["AWS's example key id", "aws_access_key_id = AKIAIOSFODNN7EXAMPLE"],
    ["Slack's XXXX webhook", "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX"],
    ["a Stripe key of x", "STRIPE_KEY=sk_live_xxxxxxxxxxxxxxxxxxxxxxxx"],
    ["a test key of x", 'stripe.api_key = "sk_test_xxxxxxxxxxxxxxxxxxxxxxxx"'],
    ["user:password@", "postgres://user:password@localhost:5432/app"],
  ])("%s", keeps);
});

describe("public values", () => {
  it.each([
    ["a reCAPTCHA site key", '<div class="g-recaptcha" data-sitekey="6LcR4xkqAAAAAJ2bT9wVn3mKp8QzL5sYd1HfE7uC"></div>'],
    ["a WireGuard public key", "PublicKey = xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg="],
    ["a Twilio message SID", '"sid": "SM1f0e8c2a3b4d5e6f7a8b9c0d1e2f3a4b"'],
    ["an fstab UUID", "UUID=3e6be9de-8139-11d1-9106-a43f08d823a6 /boot ext4 defaults 0 2"],
    ["a MIME boundary", 'Content-Type: multipart/form-data; boundary=----WebKitFormBoundary7MA4YWxkTrZu0gW'],
    ["a date format", 'date -u +"%Y-%m-%dT%H:%M:%SZ"'],
    ["a build id in minified JS", 'self.__BUILD_MANIFEST={buildId:"Xk9fQ2mN7pLw3vT8rY4uH"};'],
  ])("%s", keeps);
});
