// The catalogue of secret shapes. Every pattern is linear: bounded repeats, no nested quantifiers,
// and a literal or a word boundary to anchor it.

export interface Shape {
  kind: string;
  pattern: RegExp;
  /** The capture group holding the secret (the first that matched, when several); absent: the whole match. */
  group?: number | number[];
  /** Skip the pattern unless the text contains this (a cheap prefilter). */
  needs?: RegExp;
  /** Values that only look secret by position must also look random. */
  entropy?: boolean;
  /** A last check on the value (e.g. that a JWT header decodes to a whole JSON object). */
  valid?: (value: string) => boolean;
}

/** A JWT's header is base64url of a whole JSON object: `{…}`. */
function jwtHeader(token: string): boolean {
  try {
    const head = token.slice(0, token.indexOf(".")).replace(/-/g, "+").replace(/_/g, "/");
    const text = atob(head + "=".repeat((4 - (head.length % 4)) % 4));
    return text.startsWith("{") && text.trimEnd().endsWith("}");
  } catch {
    return false;
  }
}

/** Vendor-prefixed tokens: cloud, source hosting, chat, payment, model providers and the like. */
const VENDOR = [
  "\\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}\\b", // AWS access key ids
  "\\bAIza[\\w-]{35}", // Google API keys
  "\\bgh[pousr]_[A-Za-z0-9]{30,}|\\bgithub_pat_\\w{40,}", // GitHub
  // GitLab: personal, deploy, runner and the like; trigger tokens are hex, OAuth secrets 64 long
  "\\bgl(?:pat|dt|rt|cbt|imt|ft|soat)-(?=[\\w-]{0,60}\\d)[\\w-]{20,}|\\bglptt-[\\w-]{40}\\b|\\bglagent-[\\w-]{50,}|\\bgloas-[\\w-]{64}\\b|\\bGR1348941[\\w-]{20}\\b",
  "\\bxox[abposre]-[\\w-]{10,}|\\bxoxe\\.xox[bp]-[\\w-]{10,}|\\bxapp-\\d-[\\w-]{10,}", // Slack
  "\\bsk-ant-(?:api|admin)\\d\\d-[\\w-]{20,}", // Anthropic
  // OpenAI project and service keys carry "T3BlbkFJ" (base64 of "OpenAI"); plain sk- keys are many vendors'
  "\\bsk-(?:proj|svcacct|admin)-(?=[\\w-]{0,200}T3BlbkFJ)[\\w-]{20,}|\\bsk-[A-Za-z0-9]{20,}[\\w-]*",
  "\\b[rsp]k_(?:live|test|prod)_[A-Za-z0-9]{16,}", // Stripe
  "\\bsq0(?:atp|csp)-[\\w-]{16,}|\\bEAA[A-Za-z0-9]{20,}", // Square, Meta
  "\\bAGE-SECRET-KEY-1[A-Z0-9]{50,}|\\bATATT[\\w=-]{30,}|\\bABSK[A-Za-z0-9+/]{40,}={0,2}",
  "\\b(?:SK|AC)[0-9a-fx]{32}\\b", // Twilio
  "\\b\\d{8,10}:AA[\\w-]{33}\\b", // Telegram bots
  "\\b[MNO][A-Za-z\\d]{23,25}\\.[\\w-]{6}\\.[\\w-]{27,}", // Discord (base64 of a numeric user id)
  "\\bSG\\.[\\w-]{22}\\.[\\w-]{43}\\b", // SendGrid
  "\\bA3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}\\b", // 1Password secret keys
  "\\bv1\\.0-[a-f0-9]{24}-[a-f0-9]{100,}", // Cloudflare origin CA
  "\\bAP[\\dA-F][a-zA-Z0-9]{10,}\\b|\\bAKC[a-zA-Z0-9]{10,}", // Artifactory
  "\\b[\\w~.]{3}\\dQ~[\\w~.-]{31,34}", // Azure AD client secrets
  "\\b\\d{15,16}\\|[\\w-]{20,}", // Facebook app tokens
  "\\b(?:hf|api_org)_[A-Za-z]{30,}", // Hugging Face (letters only)
  "\\bsntry[su]_[\\w+/=-]{40,}|\\bfm[12]_[\\w+/=-]{40,}", // Sentry, Fly.io (base64 bodies)
  "\\bAPI-[A-Z0-9]{26}\\b", // Octopus Deploy
  "\\bs-s4t2(?:ud|af)-[a-f0-9]{64}\\b", // 42 intra
  "\\bdapi[a-f0-9]{32}(?:-\\d)?\\b", // Databricks
  "\\b(?:hvs|s)\\.[\\w-]{24,}", // Vault
];

const MIXED_HEX_40 = /^(?=[0-9a-f]{0,39}[A-F])(?=[0-9A-F]{0,39}[a-f])[0-9a-fA-F]{40}$/;
const PREFIXED = /^(?!(?:foo|bar|baz|test|example|sample|dummy|my|sk|gl[a-z]{2,5})[_-])(?:[A-Za-z][A-Za-z0-9]{1,9}[_-]){1,2}(?=[\w-]{0,200}\d)(?=[\w-]{0,200}[A-Za-z])[A-Za-z0-9][\w-]{29,}$/;

/**
 * Names that mark the value beside them as a secret: the last word of the key. Public keys and
 * tokens, and CSRF tokens, are not secrets.
 */
const NOT_AFTER = "(?<!public[_-]?|csrf[_-]?|xsrf[_-]?)";
const SECRET_NAME = `${NOT_AFTER}(?<!_auth)(?:secret|passw(?:or)?d|pwd|[_-]pw|passphrase|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|credentials?|auth|login|license[_-]?key)`;
/** A bare "key" names many things that are not secrets: its value must look like a credential. */
const KEY_NAME = `${NOT_AFTER}key`;
const ASSIGN = `(?:[_-]?\\d{1,2})?["'\`]?\\s{0,4}(?:[:?+!]{0,3}=|=>|:)\\s{0,4}["'\`]?\\s{0,2}`;

export const SHAPES: Shape[] = [
  { kind: "JWT", pattern: /\beyJ[\w-]{8,}\.eyJ[\w-]{8,}(?:\.[\w-]{0,600})?/g, needs: /eyJ/, valid: jwtHeader },
  // One pass per vendor shape: V8 runs a single literal-led pattern much faster than their alternation.
  ...VENDOR.map((source) => ({ kind: "vendor token", pattern: new RegExp(source, "g") })),
  { kind: "vendor token", pattern: /\b[0-9a-f]{32}-us\d{1,2}\b/g, needs: /[0-9a-f]-us\d/ }, // Mailchimp
  // Long runs of token characters, found by one plain scan and then checked whole: a short vendor
  // prefix, a separator and a long random body (npm_, hf_, glsa_, sgp_, ntn_, fo1_, pplx-, ico-,
  // ops_, tk-us-, CLOJARS_, …: the shape most new vendors use), or 40 hex digits in both cases
  // (not a git SHA, which is lower case: a token).
  { kind: "prefixed token", pattern: /(?<![\w-])[\w-]{32,}/g, valid: (v) => PREFIXED.test(v) || MIXED_HEX_40.test(v) },
  {
    kind: "authorization header",
    pattern: /\b(?:Proxy-)?(?:Authorization|X-Api-Key|X-Auth-Token|Api-Key)["']?\s{0,4}[:=]\s{0,4}["']?\s{0,4}(?:[A-Za-z][\w-]{1,19}\s{1,4})?([\w.~+/=:-]{8,})/gi,
    group: 1,
    needs: /auth|api-key/i,
  },
  { kind: "bearer token", pattern: /\bBearer\s{1,4}([\w.~+/=-]{16,})/g, group: 1, needs: /Bearer/ },
  {
    kind: "basic credentials",
    pattern: /(?:^|\s)(?:-u|--user)\s{1,4}["']?[^\s"':]{1,64}["']?:["']?([^\s"'@]{4,128})/g,
    group: 1,
    needs: /-u|--user/,
  },
  {
    kind: "URL credentials",
    // Anchored on the literal "://" (a scheme check by lookbehind would run at every position).
    pattern: /:\/\/[^\s:/?#@"'<>]{1,128}:([^\s/?#@"'<>]{1,256})@/g,
    group: 1,
    needs: /:\/\//,
  },
  {
    kind: "secret URL parameter",
    pattern: /[?&](?:access_token|token|api_?key|apikey|key|secret|client_secret|password|passwd|sig|signature|auth)=([^&#\s"'<>]{6,})/gi,
    group: 1,
    needs: /[?&]/,
  },
  {
    // One pass for three forms, so the secret names are searched once: an assignment to a secret
    // name (env files, shell exports, Makefiles, JSON/YAML fields, form bodies); a secret name as an
    // argument or a flag (getenv("API_TOKEN", "…"), --api-key "…"); an assignment to a bare "key",
    // whose value must look like a credential.
    kind: "secret assignment",
    pattern: new RegExp(
      `${SECRET_NAME}(?:${ASSIGN}([^\\s"'\`,;&)}\\]\\\\]{6,400})|(?:["']\\s{0,4},|[ =])\\s{0,4}["']([^\\s"']{8,400})["'])` +
        `|${KEY_NAME}${ASSIGN}([\\w+/=-]{16,400})(?![\\w.])`,
      "gi",
    ),
    group: [1, 2, 3],
    entropy: true,
  },
  {
    // .npmrc: //registry.example.com/:_authToken=…
    kind: "npm token",
    pattern: /\/\/[a-z0-9.-]+\.[a-z]{2,}(?::\d{1,5})?\/[\w./-]{0,200}:_auth(?:Token)?\s{0,4}=\s{0,4}["']?([\w+/=-]{8,})/gi,
    group: 1,
    needs: /_auth/,
  },
  {
    kind: "Kubernetes secret data",
    pattern: /(?:\\n|\n)(?:\\t|\t| ){1,12}[\w.-]{1,64}:\s{0,4}(?:[|>][-+]?(?:\\n|\n)(?:\\t|\t| ){1,16})?["']?([A-Za-z0-9+/]{6,}={0,2})(?=["']?(?:\\n|\n|$))/g,
    group: 1,
    needs: /kind["']?:\s{0,4}["']?secret\b/i,
  },
];

/** Placeholders and examples, not secrets: `${TOKEN}`, `%s`, `<key>`, `xxxx`, `EXAMPLE`, `your-key`. */
const PLACEHOLDER = /^[$%<{]|x{4}|X{4}|example|fake|dummy|changeme|placeholder|your[_-]|redacted|\*{3}/i;

const VERSION = /\d+\.\d+\.\d+/;

/** Random-looking: long enough, not a placeholder or a version; digits and letters, or both cases at length. */
export function looksRandom(value: string): boolean {
  if (value.length < 8 || PLACEHOLDER.test(value) || VERSION.test(value)) return false;
  const lower = /[a-z]/.test(value);
  const upper = /[A-Z]/.test(value);
  const digit = /\d/.test(value);
  return (digit && (lower || upper)) || (lower && upper && value.length >= 20);
}

/** Ids and hashes that look random but are not secrets. */
export const NOT_SECRET = /^(?:call|toolu|msg|req|resp|run|asst|thread|file|batch|chatcmpl|fp|sha\d{1,3}|h1|srvtoolu|evt|cus|sub|price|prod)[_-]/;
