// Writes test/fixtures/secrets-holdout/{positives.tsv,negatives.tsv,PROVENANCE.md}: a blind corpus for
// measuring how secret redaction generalises to vendors and layouts it was never tuned on.
// Formats come from vendors' own documentation (cited per kind in PROVENANCE.md); every value is
// synthetic, drawn from a seeded PRNG (one stream per kind, so adding a kind moves no other value).
// Run: node tools/gen-holdout.mjs
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const SEED = 20260714;
const OUT = fileURLToPath(new URL("../test/fixtures/secrets-holdout/", import.meta.url));

// ---------------------------------------------------------------------------------------------
// Seeded randomness

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function fnv1a(s) {
  let h = 0x811c9dc5;
  for (const c of s) h = Math.imul(h ^ c.codePointAt(0), 0x01000193) >>> 0;
  return h;
}

const A = {
  hex: "0123456789abcdef",
  HEX: "0123456789ABCDEF",
  digit: "0123456789",
  lower: "abcdefghijklmnopqrstuvwxyz",
  lowernum: "abcdefghijklmnopqrstuvwxyz0123456789",
  upper: "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
  uppernum: "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
  alnum: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
  letters: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
  b64: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
  b64url: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_",
  base32: "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567",
  base32lower: "abcdefghijklmnopqrstuvwxyz234567",
  base58: "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz",
};

const WORDS = [
  "amber", "anchor", "aspen", "badger", "basil", "birch", "canyon", "cedar", "cobalt", "comet", "copper", "coral",
  "cricket", "dahlia", "delta", "ember", "falcon", "fennel", "fjord", "garnet", "glacier", "harbor", "hazel", "heron",
  "indigo", "juniper", "kestrel", "lagoon", "lantern", "maple", "marigold", "meadow", "nectar", "nimbus", "oasis",
  "onyx", "orchid", "otter", "pebble", "pepper", "quartz", "quill", "raven", "saffron", "sparrow", "spruce", "summit",
  "tango", "thistle", "tundra", "umber", "velvet", "walnut", "willow", "yarrow", "zephyr",
];

/** A generator bound to one kind's own stream. */
function makeGen(kind) {
  const rand = mulberry32(SEED ^ fnv1a(kind));
  const g = {
    int: (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1)),
    pick: (xs) => xs[Math.floor(rand() * xs.length)],
    str: (alphabet, n) => {
      let s = "";
      for (let i = 0; i < n; i++) s += alphabet[Math.floor(rand() * alphabet.length)];
      return s;
    },
    bytes: (n) => Uint8Array.from({ length: n }, () => Math.floor(rand() * 256)),
  };
  for (const [name, alphabet] of Object.entries(A)) g[name] = (n) => g.str(alphabet, n);
  // A value that starts with a non-digit, as generated identifiers usually do in these alphabets.
  g.b64bytes = (n) => Buffer.from(g.bytes(n)).toString("base64");
  g.b64urlbytes = (n) => Buffer.from(g.bytes(n)).toString("base64url");
  g.uuid = () => `${g.hex(8)}-${g.hex(4)}-4${g.hex(3)}-${g.pick(["8", "9", "a", "b"])}${g.hex(3)}-${g.hex(12)}`;
  g.word = () => g.pick(WORDS);
  g.cap = (w) => w[0].toUpperCase() + w.slice(1);
  /** A human password: memorable, not random-looking, but plainly a password. */
  g.password = () =>
    g.pick([
      () => `${g.cap(g.word())}${g.int(1970, 2026)}${g.pick(["!", "#", "$", "?", "*"])}`,
      () => `${g.word()}-${g.word()}-${g.word()}-${g.int(10, 99)}`,
      () => `${g.cap(g.word())}${g.pick(["_", ".", "@"])}${g.cap(g.word())}${g.int(1, 999)}`,
      () => `${g.word()}${g.word()}${g.int(100, 9999)}`,
    ])();
  /** A generated password as password managers and `openssl rand` produce them. */
  g.randomPassword = (n = 20) => g.str(`${A.alnum}!#%^*-_=+.~`, n);
  g.jwt = (payload, sigChars = 43, alg = "HS256") =>
    `${Buffer.from(JSON.stringify({ alg, typ: "JWT" })).toString("base64url")}.${Buffer.from(JSON.stringify(payload)).toString("base64url")}.${g.b64url(sigChars)}`;
  /** A PEM body: the DER header every key of that type starts with, then random bytes, in 64-char lines. */
  g.pemBody = (bytes, der = "") => (der + Buffer.from(g.bytes(bytes)).toString("base64")).match(/.{1,64}/g);
  return g;
}

const urlenc = (s) => s.replace(/\+/g, "%2B").replace(/\//g, "%2F").replace(/=/g, "%3D");
const b64 = (s) => Buffer.from(s).toString("base64");
const b64url = (s) => Buffer.from(s).toString("base64url");
/** JSON-encode a string the way Go's encoding/json does (HTML-safe: <, >, & as \u escapes). */
const goJson = (s) => JSON.stringify(s).replace(/</g, "\\u003c").replace(/>/g, "\\u003e").replace(/&/g, "\\u0026");
const ts = (g) => `2026-0${g.int(1, 6)}-${String(g.int(10, 28))}T${String(g.int(10, 23))}:${String(g.int(10, 59))}:${String(g.int(10, 59))}.${g.int(100, 999)}Z`;


// ---------------------------------------------------------------------------------------------
// Kinds. `rows(g)` returns [secret, line] pairs; `secret` is the exact text that must disappear.
// For a token made of segments (prefix.id.secret), `secret` is its last high-entropy segment, so a
// redaction that stops at the first separator counts as a miss. Where a line carries a public part
// (a user name, a host, a key id), only the secret part is `secret`.

const K = [];
const kind = (family, name, doc, format, rows) => K.push({ family, kind: name, doc, format, rows });

// ---- cloud ----------------------------------------------------------------------------------
kind("cloud", "aws-access-key-id",
  "AWS STS API Reference, GetAccessKeyInfo — https://docs.amazonaws.cn/goto/WebAPI/sts-2011-06-15/GetAccessKeyInfo ; IAM identifiers (unique ID prefixes)",
  "AKIA (long-term) or ASIA (STS) + 16 of [A-Z2-7], 20 chars",
  (g) => {
    const a = `AKIA${g.base32(16)}`, b = `ASIA${g.base32(16)}`, c = `AKIA${g.base32(16)}`;
    return [
      [a, `[default]\naws_access_key_id = ${a}\nregion = eu-west-1`],
      [b, `{"Credentials": {"AccessKeyId": "${b}", "Expiration": "2026-05-02T11:14:03+00:00"}}`],
      [c, `      - name: AWS_ACCESS_KEY_ID\n        value: ${c}`],
    ];
  });
kind("cloud", "aws-secret-access-key",
  "AWS IAM User Guide, Managing access keys (secret access key: 40 chars); ~/.aws/credentials format — https://docs.aws.amazon.com/cli/latest/userguide/cli-configure-files.html",
  "40 chars of [A-Za-z0-9/+]",
  (g) => {
    const k = () => g.str(A.alnum + "/+", 40);
    const [a, b, c, d] = [k(), k(), k(), k()];
    const id = `AKIA${g.base32(16)}`;
    return [
      [a, `[prod]\naws_access_key_id = ${id}\naws_secret_access_key = ${a}`],
      [b, `export AWS_SECRET_ACCESS_KEY=${b}`],
      [c, `s3 = boto3.client("s3", aws_access_key_id="${id}", aws_secret_access_key="${c}")`],
      [d, `$ aws configure set aws_secret_access_key ${d} --profile ci`],
    ];
  });
kind("cloud", "aws-session-token",
  "AWS STS AssumeRole / GetSessionToken response (SessionToken); AWS_SESSION_TOKEN env var — https://docs.aws.amazon.com/cli/latest/userguide/cli-configure-envvars.html",
  "long base64 (here 356-420 chars) of an opaque binary blob",
  (g) => {
    const t = () => `IQoJb3JpZ2luX2Vj${g.str(A.b64, g.int(340, 400))}`;
    const [a, b] = [t(), t()];
    return [
      [a, `AWS_SESSION_TOKEN=${a}`],
      [b, `{\n  "Credentials": {\n    "AccessKeyId": "ASIA${g.base32(16)}",\n    "SecretAccessKey": "${g.str(A.alnum + "/+", 40)}",\n    "SessionToken": "${b}",\n    "Expiration": "2026-03-09T18:42:10Z"\n  }\n}`],
    ];
  });
kind("cloud", "gcp-sa-private-key-id",
  "Google Cloud IAM, Create and manage service account keys (JSON key file fields) — https://cloud.google.com/iam/docs/keys-create-delete",
  "private_key_id: 40 hex",
  (g) => {
    const a = g.hex(40), b = g.hex(40);
    return [
      [a, `{\n  "type": "service_account",\n  "project_id": "billing-prod-4411",\n  "private_key_id": "${a}",\n  "client_email": "exporter@billing-prod-4411.iam.gserviceaccount.com"\n}`],
      [b, `GOOGLE_PRIVATE_KEY_ID=${b}`],
    ];
  });
kind("cloud", "gcp-sa-private-key",
  "Google Cloud IAM service account JSON key (private_key: PKCS#8 PEM with \\n escapes) — https://cloud.google.com/iam/docs/keys-create-delete",
  "-----BEGIN PRIVATE KEY----- PKCS#8 body, 64-char base64 lines; secret = one body line from the middle",
  (g) => {
    const pkcs8 = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQ";
    const body = g.pemBody(1180, pkcs8), body2 = g.pemBody(1180, pkcs8);
    const pk = `-----BEGIN PRIVATE KEY-----\\n${body.join("\\n")}\\n-----END PRIVATE KEY-----\\n`;
    const pk2 = `-----BEGIN PRIVATE KEY-----\n${body2.join("\n")}\n-----END PRIVATE KEY-----`;
    return [
      [body[7], `{"type": "service_account", "project_id": "ml-pipelines-2291", "private_key_id": "${g.hex(40)}", "private_key": "${pk}", "client_email": "trainer@ml-pipelines-2291.iam.gserviceaccount.com", "token_uri": "https://oauth2.googleapis.com/token"}`],
      [body2[9], `$ cat /var/secrets/google/key.pem\n${pk2}`],
    ];
  });
kind("cloud", "google-api-key",
  "Google Cloud, Manage API keys (keys start with AIza, 39 chars); Gemini API (Google AI Studio) keys — https://ai.google.dev/gemini-api/docs/api-key",
  "AIza + 35 of [A-Za-z0-9_-]",
  (g) => {
    const k = () => `AIza${g.b64url(35)}`;
    const [a, b, c] = [k(), k(), k()];
    return [
      [a, `GEMINI_API_KEY=${a}`],
      [b, `curl "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:generateContent?key=${b}" -H 'Content-Type: application/json' -d @req.json`],
      [c, `client = genai.Client(api_key="${c}")`],
    ];
  });
kind("cloud", "azure-storage-account-key",
  "Azure Storage, Configure a connection string (AccountKey) — https://learn.microsoft.com/azure/storage/common/storage-configure-connection-string",
  "64 random bytes, base64 (88 chars ending ==)",
  (g) => {
    const [a, b, c] = [g.b64bytes(64), g.b64bytes(64), g.b64bytes(64)];
    return [
      [a, `AZURE_STORAGE_CONNECTION_STRING="DefaultEndpointsProtocol=https;AccountName=stcontosoprod01;AccountKey=${a};EndpointSuffix=core.windows.net"`],
      [b, `az storage blob upload --account-name stlogsweu --account-key ${b} -c backups -f db.dump -n db-2026-04-01.dump`],
      [c, `  "Values": {\n    "AzureWebJobsStorage": "DefaultEndpointsProtocol=https;AccountName=funcappstore;AccountKey=${c};EndpointSuffix=core.windows.net",\n    "FUNCTIONS_WORKER_RUNTIME": "node"\n  }`],
    ];
  });
kind("cloud", "azure-sas-signature",
  "Azure Storage, Create a service SAS (sig = HMAC-SHA256, base64, URL-encoded) — https://learn.microsoft.com/rest/api/storageservices/create-service-sas",
  "sig= 32-byte HMAC, base64 then URL-encoded; secret = the sig value as it appears",
  (g) => {
    const [a, b] = [urlenc(g.b64bytes(32)), urlenc(g.b64bytes(32))];
    return [
      [a, `https://stmediaprod.blob.core.windows.net/uploads/report.pdf?sp=r&st=2026-04-01T09:00:00Z&se=2026-04-08T17:00:00Z&spr=https&sv=2022-11-02&sr=b&sig=${a}`],
      [b, `AZURE_SAS_TOKEN="sv=2022-11-02&ss=bfqt&srt=sco&sp=rwdlacupiytfx&se=2027-01-01T00:00:00Z&st=2026-01-01T00:00:00Z&spr=https&sig=${b}"`],
    ];
  });
kind("cloud", "azure-sas-key-connection-string",
  "Azure Service Bus / Event Hubs, Shared access signature authentication (SharedAccessKey in connection strings) — https://learn.microsoft.com/azure/service-bus-messaging/service-bus-sas",
  "SharedAccessKey: 32 random bytes, base64 (44 chars)",
  (g) => {
    const [a, b] = [g.b64bytes(32), g.b64bytes(32)];
    return [
      [a, `ServiceBus__ConnectionString=Endpoint=sb://orders-bus.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=${a}`],
      [b, `  eventhub:\n    connection: "Endpoint=sb://telemetry-ns.servicebus.windows.net/;SharedAccessKeyName=send;SharedAccessKey=${b};EntityPath=device-events"`],
    ];
  });
kind("cloud", "digitalocean-token",
  "DigitalOcean, How to Create a Personal Access Token — https://docs.digitalocean.com/reference/api/create-personal-access-token/ ; dop_v1_/doo_v1_/dor_v1_ prefixes",
  "dop_v1_ (PAT) / doo_v1_ (OAuth) + 64 hex",
  (g) => {
    const a = `dop_v1_${g.hex(64)}`, b = `doo_v1_${g.hex(64)}`, c = `dop_v1_${g.hex(64)}`;
    return [
      [a, `doctl auth init --access-token ${a}`],
      [b, `Authorization: Bearer ${b}`],
      [c, `do_token = "${c}"`],
    ];
  });
kind("cloud", "linode-token",
  "Linode (Akamai) API, Get started — personal access tokens; linode-cli config — https://techdocs.akamai.com/linode-api/reference/get-started",
  "64 hex, no prefix",
  (g) => {
    const a = g.hex(64), b = g.hex(64);
    return [
      [a, `[DEFAULT]\ndefault-user = ops-admin\n\n[ops-admin]\ntoken = ${a}\nregion = us-east`],
      [b, `export LINODE_TOKEN=${b}`],
    ];
  });
kind("cloud", "hetzner-cloud-token",
  "Hetzner Cloud API, Authentication (Bearer API token); hcloud CLI HCLOUD_TOKEN — https://docs.hetzner.cloud/#authentication",
  "64 of [A-Za-z0-9], no prefix",
  (g) => {
    const a = g.alnum(64), b = g.alnum(64), c = g.alnum(64);
    return [
      [a, `HCLOUD_TOKEN=${a}`],
      [b, `provider "hcloud" {\n  token = "${b}"\n}`],
      [c, `[[contexts]]\n  name = "prod"\n  token = "${c}"`],
    ];
  });
kind("cloud", "alibaba-access-key-secret",
  "Alibaba Cloud RAM, Create an AccessKey pair (AccessKey ID starts LTAI; AccessKey secret 30 chars) — https://www.alibabacloud.com/help/en/ram/user-guide/create-an-accesskey-pair",
  "AccessKey secret: 30 of [A-Za-z0-9]; the line also shows the LTAI… id",
  (g) => {
    const a = g.alnum(30), b = g.alnum(30);
    return [
      [a, `ALIBABA_CLOUD_ACCESS_KEY_ID=LTAI${g.alnum(20)}\nALIBABA_CLOUD_ACCESS_KEY_SECRET=${a}`],
      [b, `aliyun configure set --profile deploy --mode AK --access-key-id LTAI${g.alnum(20)} --access-key-secret ${b} --region cn-hangzhou`],
    ];
  });
kind("cloud", "ibm-cloud-api-key",
  "IBM Cloud, Managing user API keys (ibmcloud login --apikey, IBMCLOUD_API_KEY) — https://cloud.ibm.com/docs/account?topic=account-userapikey",
  "44 of [A-Za-z0-9_-]",
  (g) => {
    const a = g.b64url(44), b = g.b64url(44);
    return [
      [a, `ibmcloud login --apikey ${a} -r us-south`],
      [b, `{\n  "name": "terraform-ci",\n  "description": "created 2026-02-11",\n  "createdAt": "2026-02-11T10:22+0000",\n  "apikey": "${b}"\n}`],
    ];
  });
kind("cloud", "oracle-oci-auth-token",
  "Oracle Cloud Infrastructure, Managing User Credentials — auth tokens (used as the password for OCI Registry) — https://docs.oracle.com/iaas/Content/Registry/Tasks/registrygettingauthtoken.htm",
  "auth token: 20 printable chars incl. punctuation; secret in docker login -p / OCI_AUTH_TOKEN",
  (g) => {
    const t = () => g.str(`${A.alnum};:()<>[]{}+-.#`, 20);
    const [a, b] = [t(), t()];
    return [
      [a, `docker login fra.ocir.io -u 'frp7kq2x8n1w/oracleidentitycloudservice/jane.doe@example.com' -p '${a}'`],
      [b, `OCI_AUTH_TOKEN='${b}'`],
    ];
  });

// ---- ci / code hosting --------------------------------------------------------------------
kind("ci", "github-classic-pat",
  "GitHub changelog 2021-03-31, Authentication token format updates — https://github.blog/changelog/2021-03-31-authentication-token-format-updates-are-generally-available",
  "ghp_ + 36 of [A-Za-z0-9]",
  (g) => {
    const [a, b, c, d] = [`ghp_${g.alnum(36)}`, `ghp_${g.alnum(36)}`, `ghp_${g.alnum(36)}`, `ghp_${g.alnum(36)}`];
    return [
      [a, `git remote set-url origin https://${a}@github.com/acme/infra.git`],
      [b, `//npm.pkg.github.com/:_authToken=${b}`],
      [c, `{"tool": "bash", "arguments": {"command": "gh auth login --with-token <<< ${c}"}}`],
      [d, `HOMEBREW_GITHUB_API_TOKEN=${d}`],
    ];
  });
kind("ci", "github-fine-grained-pat",
  "GitHub Docs, Managing your personal access tokens (fine-grained tokens, github_pat_ prefix); token-format changelog",
  "github_pat_ + 22 + _ + 59 of [A-Za-z0-9]; secret = the final 59",
  (g) => {
    const t = () => { const tail = g.alnum(59); return [tail, `github_pat_${g.alnum(22)}_${tail}`]; };
    const [[a, A1], [b, B1]] = [t(), t()];
    return [
      [a, `env:\n  GH_TOKEN: ${A1}`],
      [b, `curl -sS -H "Authorization: Bearer ${B1}" https://api.github.com/repos/acme/web/actions/runs`],
    ];
  });
kind("ci", "github-app-oauth-token",
  "GitHub changelog 2021-03-31 (gho_ OAuth, ghu_ user-to-server, ghs_ server-to-server, ghr_ refresh)",
  "gho_/ghu_/ghs_ + 36 of [A-Za-z0-9]; ghr_ + 76",
  (g) => {
    const a = `gho_${g.alnum(36)}`, b = `ghs_${g.alnum(36)}`, c = `ghu_${g.alnum(36)}`, d = `ghr_${g.alnum(76)}`;
    return [
      [a, `github.com:\n    user: octo-dev\n    oauth_token: ${a}\n    git_protocol: https`],
      [b, `[2026-04-02 10:14:22] DEBUG installation token minted: ${b} (expires 2026-04-02T11:14:22Z)`],
      [c, `{"access_token":"${c}","expires_in":28800,"refresh_token":"${d}","refresh_token_expires_in":15811200,"scope":"","token_type":"bearer"}`],
    ];
  });
kind("ci", "gitlab-token",
  "GitLab, Personal access tokens and token prefixes (glpat-, glrt- runner, gldt- deploy) — https://docs.gitlab.com/security/tokens/#token-prefixes ; https://gitlab.com/gitlab-org/gitlab/-/issues/342327",
  "glpat-/gldt-/glrt- + 20 of [A-Za-z0-9_-]",
  (g) => {
    const a = `glpat-${g.b64url(20)}`, b = `glrt-${g.b64url(20)}`, c = `gldt-${g.b64url(20)}`, d = `glpat-${g.b64url(20)}`;
    return [
      [a, `curl --header "PRIVATE-TOKEN: ${a}" "https://gitlab.example.com/api/v4/projects?owned=true"`],
      [b, `[[runners]]\n  name = "docker-runner-01"\n  url = "https://gitlab.com/"\n  token = "${b}"\n  executor = "docker"`],
      [c, `helm repo add internal https://gitlab.example.com/api/v4/projects/42/packages/helm/stable --username deploy-bot --password ${c}`],
      [d, `GITLAB_TOKEN=${d} glab mr list --assignee=@me`],
    ];
  });
kind("ci", "circleci-token",
  "CircleCI changelog, New format for API access tokens — https://circleci.com/changelog/new-format-for-api-access-tokens/",
  "CCIPAT_/CCIPRJ_ + 22 base58 + _ + 40 hex (secret = the 40 hex); legacy 40 hex",
  (g) => {
    const a = g.hex(40), b = g.hex(40), c = g.hex(40);
    return [
      [a, `CIRCLE_TOKEN=CCIPAT_${g.base58(22)}_${a}`],
      [b, `curl --request GET --url https://circleci.com/api/v2/me --header "Circle-Token: CCIPRJ_${g.base58(22)}_${b}"`],
      [c, `host: https://circleci.com\ntoken: ${c}`],
    ];
  });
kind("ci", "buildkite-token",
  "Buildkite Docs, API access tokens (bkua_ prefix) — https://buildkite.com/docs/apis/managing-api-tokens",
  "bkua_ + 40 hex; agent tokens are 50 hex-like chars",
  (g) => {
    const a = `bkua_${g.hex(40)}`, b = `bkua_${g.hex(40)}`, c = g.hex(50);
    return [
      [a, `curl -H "Authorization: Bearer ${a}" https://api.buildkite.com/v2/organizations/acme/pipelines`],
      [b, `BUILDKITE_API_TOKEN=${b}`],
      [c, `buildkite-agent start --token ${c} --tags "queue=deploy"`],
    ];
  });
kind("ci", "travis-ci-token",
  "Travis CI API v3, Authentication (Authorization: token <token>) — https://developer.travis-ci.com/authentication",
  "22 of [A-Za-z0-9_-], no prefix",
  (g) => {
    const a = g.b64url(22), b = g.b64url(22);
    return [
      [a, `curl -H "Travis-API-Version: 3" -H "Authorization: token ${a}" https://api.travis-ci.com/repo/acme%2Fweb/requests`],
      [b, `TRAVIS_API_TOKEN: ${b}`],
    ];
  });
kind("ci", "jenkins-api-token",
  "Jenkins Handbook, Authenticating scripted clients (user API tokens, 34 chars: 11 + 32 hex) — https://www.jenkins.io/doc/book/system-administration/authenticating-scripted-clients/",
  "11 + 32 hex",
  (g) => {
    const a = `11${g.hex(32)}`, b = `11${g.hex(32)}`, c = `11${g.hex(32)}`;
    return [
      [a, `curl -X POST -u deploy:${a} "https://jenkins.acme.io/job/release/buildWithParameters?TAG=v4.2.0"`],
      [b, `java -jar jenkins-cli.jar -s https://ci.acme.io/ -auth admin:${b} build release-train -p TAG=v4.2.0`],
      [c, `JENKINS_API_TOKEN=${c}`],
    ];
  });
kind("ci", "azure-devops-pat",
  "Microsoft Purview, Azure DevOps personal access token entity definition (84 chars, 'AZDO' at 76-80) — https://learn.microsoft.com/purview/sit-defn-azure-devops-personal-access-token ; Azure DevOps Sprint 241 release notes (52 -> 84 chars)",
  "84 of [A-Za-z0-9] with AZDO at offset 76; legacy 52 of [a-z2-7]",
  (g) => {
    const a = `${g.alnum(76)}AZDO${g.alnum(4)}`, b = g.base32lower(52), c = `${g.alnum(76)}AZDO${g.alnum(4)}`;
    return [
      [a, `AZURE_DEVOPS_EXT_PAT=${a}`],
      [b, `git -c http.extraheader="AUTHORIZATION: Basic $(printf ':%s' '${b}' | base64)" clone https://dev.azure.com/contoso/Payments/_git/api`],
      [c, `      - task: npmAuthenticate@0\n      - script: echo "//pkgs.dev.azure.com/contoso/_packaging/feed/npm/registry/:_password=${c}" >> .npmrc`],
    ];
  });
kind("ci", "bitbucket-app-password",
  "Bitbucket Cloud, App passwords (basic auth with username) — https://bitbucket.org/blog/deprecating-atlassian-account-password-for-bitbucket-api-and-git-activity ; https://support.atlassian.com/bitbucket-cloud/docs/app-passwords/",
  "ATBB + 32 of [A-Za-z0-9] (app passwords issued since 2022)",
  (g) => {
    const a = `ATBB${g.alnum(32)}`, b = `ATBB${g.alnum(32)}`;
    return [
      [a, `git clone https://build-bot:${a}@bitbucket.org/acme/mobile-app.git`],
      [b, `BITBUCKET_APP_PASSWORD=${b}`],
    ];
  });
kind("ci", "atlassian-api-token",
  "Atlassian, Manage API tokens for your Atlassian account (basic auth email:token) — https://support.atlassian.com/atlassian-account/docs/manage-api-tokens-for-your-atlassian-account/",
  "ATATT3 + ~180 of [A-Za-z0-9_=-] ending =<8 hex>",
  (g) => {
    const t = () => `ATATT3xFfGF0${g.b64url(170)}=${g.HEX(8)}`;
    const [a, b] = [t(), t()];
    return [
      [a, `JIRA_API_TOKEN=${a}`],
      [b, `curl -u jane.doe@acme.com:${b} -H "Accept: application/json" https://acme.atlassian.net/rest/api/3/myself`],
    ];
  });

// ---- payment --------------------------------------------------------------------------------
kind("payment", "stripe-secret-key",
  "Stripe Docs, API keys (sk_live_/sk_test_ secret keys) — https://docs.stripe.com/keys ; key length up to 128 per Stripe in https://gitlab.com/gitlab-org/gitlab/-/issues/458019",
  "sk_live_/sk_test_ + 24–99 of [A-Za-z0-9]",
  (g) => {
    const a = `sk_live_${g.alnum(99)}`, b = `sk_test_${g.alnum(99)}`, c = `sk_live_${g.alnum(24)}`;
    return [
      [a, `STRIPE_SECRET_KEY=${a}`],
      [b, `stripe.api_key = "${b}"`],
      [c, `curl https://api.stripe.com/v1/charges -u ${c}: -d amount=2000 -d currency=eur`],
    ];
  });
kind("payment", "stripe-restricted-key",
  "Stripe Docs, Restricted API keys (rk_live_) — https://docs.stripe.com/keys#create-restricted-api-secret-key",
  "rk_live_/rk_test_ + 99 of [A-Za-z0-9]",
  (g) => {
    const a = `rk_live_${g.alnum(99)}`, b = `rk_test_${g.alnum(99)}`;
    return [
      [a, `const stripe = new Stripe('${a}', { apiVersion: '2025-03-31.basil' });`],
      [b, `  stripe:\n    restricted_key: ${b}`],
    ];
  });
kind("payment", "stripe-webhook-secret",
  "Stripe Docs, Check the webhook signatures (endpoint secret whsec_) — https://docs.stripe.com/webhooks#verify-official-libraries",
  "whsec_ + 32 of [A-Za-z0-9]",
  (g) => {
    const a = `whsec_${g.alnum(32)}`, b = `whsec_${g.alnum(32)}`;
    return [
      [a, `> Ready! Your webhook signing secret is ${a} (^C to quit)`],
      [b, `STRIPE_WEBHOOK_SECRET=${b}`],
    ];
  });
kind("payment", "braintree-access-token",
  "Braintree, Access tokens for PayPal/Braintree SDK (access_token$<env>$<merchant>$<secret>) — https://developer.paypal.com/braintree/docs/guides/authentication/",
  "access_token$production$ + 16 lower alnum + $ + 32 hex; secret = the 32 hex",
  (g) => {
    const a = g.hex(32), b = g.hex(32);
    return [
      [a, `BRAINTREE_ACCESS_TOKEN=access_token$production$${g.lowernum(16)}$${a}`],
      [b, `gateway = braintree.BraintreeGateway(access_token="access_token$sandbox$${g.lowernum(16)}$${b}")`],
    ];
  });
kind("payment", "paypal-client-secret",
  "PayPal Developer, Get client ID and client secret (REST apps) — https://developer.paypal.com/api/rest/",
  "80 of [A-Za-z0-9_-]",
  (g) => {
    const a = g.b64url(80), b = g.b64url(80);
    return [
      [a, `PAYPAL_CLIENT_ID=A${g.b64url(79)}\nPAYPAL_CLIENT_SECRET=${a}`],
      [b, `curl -v -X POST "https://api-m.paypal.com/v1/oauth2/token" -u "A${g.b64url(79)}:${b}" -H "Content-Type: application/x-www-form-urlencoded" -d "grant_type=client_credentials"`],
    ];
  });
kind("payment", "square-token",
  "Square Developer, Access tokens (EAAA…) and application secret (sq0csp-) — https://developer.squareup.com/docs/build-basics/access-tokens",
  "EAAA + 60 of [A-Za-z0-9_-]; sq0csp- + 43",
  (g) => {
    const a = `EAAA${g.b64url(60)}`, b = `sq0csp-${g.b64url(43)}`, c = `EAAA${g.b64url(60)}`;
    return [
      [a, `SQUARE_ACCESS_TOKEN=${a}`],
      [b, `square:\n  application_id: sq0idp-${g.b64url(22)}\n  application_secret: ${b}`],
      [c, `client = Client(access_token='${c}', environment='production')`],
    ];
  });
kind("payment", "adyen-api-key",
  "Adyen Docs, API credentials — API key (X-API-Key header) — https://docs.adyen.com/development-resources/api-credentials/",
  "AQE + ~110 of [A-Za-z0-9+/=] with a few separators",
  (g) => {
    const t = () => `AQE${g.str(A.alnum + "+/", 60)}=${g.str(A.alnum + "+/", 8)}-${g.str(A.alnum + "+/", 44)}=-${g.str(A.alnum, 10)}`;
    const [a, b] = [t(), t()];
    return [
      [a, `curl https://checkout-test.adyen.com/v71/paymentMethods -H 'x-API-key: ${a}' -H 'content-type: application/json' -d '{"merchantAccount": "AcmeECOM"}'`],
      [b, `ADYEN_API_KEY="${b}"`],
    ];
  });
kind("payment", "razorpay-key-secret",
  "Razorpay Docs, Generate API keys (key_id rzp_live_…, key_secret) — https://razorpay.com/docs/api/authentication/",
  "key_secret: 24 of [A-Za-z0-9]",
  (g) => {
    const a = g.alnum(24), b = g.alnum(24);
    return [
      [a, `RAZORPAY_KEY_ID=rzp_live_${g.alnum(14)}\nRAZORPAY_KEY_SECRET=${a}`],
      [b, `client = razorpay.Client(auth=("rzp_test_${g.alnum(14)}", "${b}"))`],
    ];
  });
kind("payment", "shopify-token",
  "Shopify developer changelog: access token length increase (shpat_/shpca_/shppa_) and app secret key length increase (shpss_) — https://shopify.dev/changelog/length-of-the-shopify-access-token-is-increasing",
  "shpat_/shpca_/shppa_/shpss_ + 32 hex",
  (g) => {
    const a = `shpat_${g.hex(32)}`, b = `shpss_${g.hex(32)}`, c = `shpca_${g.hex(32)}`;
    return [
      [a, `curl -X GET "https://acme-store.myshopify.com/admin/api/2025-01/products.json" -H "X-Shopify-Access-Token: ${a}"`],
      [b, `SHOPIFY_API_SECRET=${b}`],
      [c, `shopify_access_token = "${c}"`],
    ];
  });

// ---- messaging ------------------------------------------------------------------------------
kind("messaging", "slack-bot-user-token",
  "Slack Docs, Tokens (bot xoxb-, user xoxp-) — https://docs.slack.dev/authentication/tokens",
  "xoxb-<digits>-<digits>-<24 alnum> / xoxp-<digits>-<digits>-<digits>-<32 hex>; secret = last segment",
  (g) => {
    const a = g.alnum(24), b = g.hex(32), c = g.alnum(24);
    return [
      [a, `SLACK_BOT_TOKEN=xoxb-${g.digit(12)}-${g.digit(13)}-${a}`],
      [b, `client = WebClient(token="xoxp-${g.digit(12)}-${g.digit(12)}-${g.digit(13)}-${b}")`],
      [c, `{"ok":true,"app_id":"A0${g.uppernum(9)}","access_token":"xoxb-${g.digit(12)}-${g.digit(13)}-${c}","token_type":"bot","scope":"chat:write"}`],
    ];
  });
kind("messaging", "slack-app-token",
  "Slack Docs, Tokens (app-level tokens xapp-) — https://docs.slack.dev/authentication/tokens",
  "xapp-1-A<10>-<13 digits>-<64 hex>; secret = last segment",
  (g) => {
    const a = g.hex(64), b = g.hex(64);
    return [
      [a, `SLACK_APP_TOKEN=xapp-1-A0${g.uppernum(9)}-${g.digit(13)}-${a}`],
      [b, `app = App(token=os.environ["SLACK_BOT_TOKEN"])\nSocketModeHandler(app, "xapp-1-A0${g.uppernum(9)}-${g.digit(13)}-${b}").start()`],
    ];
  });
kind("messaging", "slack-webhook-url",
  "Slack Docs, Sending messages using incoming webhooks — https://docs.slack.dev/messaging/sending-messages-using-incoming-webhooks",
  "https://hooks.slack.com/services/T…/B…/<24 alnum>; secret = last path segment",
  (g) => {
    const a = g.alnum(24), b = g.alnum(24);
    return [
      [a, `curl -X POST -H 'Content-type: application/json' --data '{"text":"deploy finished"}' https://hooks.slack.com/services/T0${g.uppernum(8)}/B0${g.uppernum(8)}/${a}`],
      [b, `alertmanager:\n  receivers:\n    - name: oncall\n      slack_configs:\n        - api_url: https://hooks.slack.com/services/T0${g.uppernum(8)}/B0${g.uppernum(8)}/${b}\n          channel: '#alerts'`],
    ];
  });
kind("messaging", "twilio-credentials",
  "Twilio Docs, Auth tokens and API keys (Account SID AC…, auth token 32 hex; API key SK…, secret 32 alnum) — https://www.twilio.com/docs/iam/api-keys",
  "auth token: 32 hex; API key secret: 32 of [A-Za-z0-9]",
  (g) => {
    const a = g.hex(32), b = g.alnum(32), c = g.hex(32);
    return [
      [a, `TWILIO_ACCOUNT_SID=AC${g.hex(32)}\nTWILIO_AUTH_TOKEN=${a}`],
      [b, `client = Client("SK${g.hex(32)}", "${b}", "AC${g.hex(32)}")`],
      [c, `curl -X POST https://api.twilio.com/2010-04-01/Accounts/AC${g.hex(32)}/Messages.json --data-urlencode "Body=hi" -u AC${g.hex(32)}:${c}`],
    ];
  });
kind("messaging", "discord-bot-token",
  "Discord Developer Docs, Reference — Authentication (Authorization: Bot <token>) — https://discord.com/developers/docs/reference#authentication",
  "base64(user id).<6>.<38> of [A-Za-z0-9_-]; secret = last segment",
  (g) => {
    const t = () => { const tail = g.b64url(38); return [tail, `${b64url(g.digit(19)).replace(/=+$/, "")}.${g.b64url(6)}.${tail}`]; };
    const [[a, A1], [b, B1]] = [t(), t()];
    return [
      [a, `DISCORD_TOKEN=${A1}`],
      [b, `client.run('${B1}')`],
    ];
  });
kind("messaging", "discord-webhook-url",
  "Discord Developer Docs, Webhook resource (execute webhook: /webhooks/{id}/{token}) — https://discord.com/developers/docs/resources/webhook",
  "https://discord.com/api/webhooks/<19 digits>/<68 of [A-Za-z0-9_-]>; secret = token",
  (g) => {
    const a = g.b64url(68), b = g.b64url(68);
    return [
      [a, `DISCORD_WEBHOOK_URL=https://discord.com/api/webhooks/${g.digit(19)}/${a}`],
      [b, `requests.post("https://discordapp.com/api/webhooks/${g.digit(18)}/${b}", json={"content": msg})`],
    ];
  });
kind("messaging", "telegram-bot-token",
  "Telegram Bot API, Authorizing your bot (token like 123456:ABC-DEF…, in https://api.telegram.org/bot<token>/METHOD) — https://core.telegram.org/bots/api#authorizing-your-bot",
  "<8–10 digits>:AA + 33 of [A-Za-z0-9_-]; secret = part after the colon",
  (g) => {
    const a = `AA${g.b64url(33)}`, b = `AA${g.b64url(33)}`, c = `AA${g.b64url(33)}`;
    return [
      [a, `TELEGRAM_BOT_TOKEN=${g.digit(10)}:${a}`],
      [b, `curl -s "https://api.telegram.org/bot${g.digit(10)}:${b}/sendMessage?chat_id=-100${g.digit(10)}&text=build%20green"`],
      [c, `bot = telebot.TeleBot("${g.digit(9)}:${c}")`],
    ];
  });
kind("messaging", "vonage-api-secret",
  "Vonage API Developer, Authentication (api_key 8 hex, api_secret 16 alnum) — https://developer.vonage.com/en/getting-started/concepts/authentication",
  "api_secret: 16 of [A-Za-z0-9]",
  (g) => {
    const a = g.alnum(16), b = g.alnum(16);
    return [
      [a, `VONAGE_API_KEY=${g.hex(8)}\nVONAGE_API_SECRET=${a}`],
      [b, `curl -X POST https://rest.nexmo.com/sms/json -d from=Acme -d to=447700900000 -d text=hi -d api_key=${g.hex(8)} -d api_secret=${b}`],
    ];
  });
kind("messaging", "messagebird-key",
  "MessageBird (Bird) API, Authentication (Authorization: AccessKey <key>) — https://developers.messagebird.com/api/#authentication",
  "25 of [A-Za-z0-9]",
  (g) => {
    const a = g.alnum(25), b = g.alnum(25);
    return [
      [a, `curl -X GET https://rest.messagebird.com/balance -H 'Authorization: AccessKey ${a}'`],
      [b, `MESSAGEBIRD_ACCESS_KEY=${b}`],
    ];
  });
kind("messaging", "mattermost-token",
  "Mattermost, Personal access tokens and incoming webhooks (26-char ids) — https://developers.mattermost.com/integrate/reference/personal-access-token/",
  "26 of [a-z0-9]",
  (g) => {
    const a = g.lowernum(26), b = g.lowernum(26), c = g.lowernum(26);
    return [
      [a, `curl -i -H 'Authorization: Bearer ${a}' https://chat.acme.io/api/v4/users/me`],
      [b, `MATTERMOST_WEBHOOK=https://chat.acme.io/hooks/${b}`],
      [c, `mmctl auth login https://chat.acme.io --name acme --username sysadmin --access-token ${c}`],
    ];
  });
kind("messaging", "teams-webhook-url",
  "Microsoft Learn, Create an Incoming Webhook (webhook.office.com URLs) and Power Automate workflow webhooks (sig=) — https://learn.microsoft.com/microsoftteams/platform/webhooks-and-connectors/how-to/add-incoming-webhook",
  "…/IncomingWebhook/<32 hex>/<guid>… ; workflow URL sig=<43 base64url>; secret = that part",
  (g) => {
    const a = g.hex(32), b = g.b64url(43);
    return [
      [a, `TEAMS_WEBHOOK_URL=https://contoso.webhook.office.com/webhookb2/${g.uuid()}@${g.uuid()}/IncomingWebhook/${a}/${g.uuid()}/V2${g.b64url(43)}`],
      [b, `notify:\n  teams: "https://prod-27.westeurope.logic.azure.com:443/workflows/${g.hex(32)}/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=${b}"`],
    ];
  });

// ---- mail -----------------------------------------------------------------------------------
kind("mail", "sendgrid-key",
  "Twilio SendGrid Docs, API keys (SG.<id>.<secret>) — https://www.twilio.com/docs/sendgrid/ui/account-and-settings/api-keys",
  "SG. + 22 + . + 43 of [A-Za-z0-9_-]; secret = last segment",
  (g) => {
    const a = g.b64url(43), b = g.b64url(43), c = g.b64url(43);
    return [
      [a, `SENDGRID_API_KEY=SG.${g.b64url(22)}.${a}`],
      [b, `sg = SendGridAPIClient('SG.${g.b64url(22)}.${b}')`],
      [c, `spring:\n  sendgrid:\n    api-key: SG.${g.b64url(22)}.${c}`],
    ];
  });
kind("mail", "mailgun-key",
  "Mailgun Docs, API keys (private API key; legacy key- prefix) — https://documentation.mailgun.com/docs/mailgun/api-reference/authentication/",
  "key- + 32 hex (legacy) or 32 hex-8 hex-8 hex",
  (g) => {
    const a = `key-${g.hex(32)}`, b = `${g.hex(32)}-${g.hex(8)}-${g.hex(8)}`;
    return [
      [a, `curl -s --user 'api:${a}' https://api.mailgun.net/v3/mg.acme.io/messages -F from='Acme <noreply@mg.acme.io>' -F to=jane@example.com -F subject=Hi -F text=Hello`],
      [b, `MAILGUN_API_KEY=${b}`],
    ];
  });
kind("mail", "mailchimp-key",
  "Mailchimp Marketing API, Quick start (API key ends in -<dc>) and Mandrill/Transactional API keys — https://mailchimp.com/developer/marketing/guides/quick-start/",
  "32 hex + -us<1–2 digits>; Mandrill md- + 22",
  (g) => {
    const a = `${g.hex(32)}-us${g.int(1, 21)}`, b = `md-${g.b64url(22)}`, c = `${g.hex(32)}-us${g.int(1, 21)}`;
    return [
      [a, `MAILCHIMP_API_KEY=${a}`],
      [b, `mailchimp = MailchimpTransactional.Client("${b}")`],
      [c, `curl -sS "https://us6.api.mailchimp.com/3.0/lists" --user "anystring:${c}"`],
    ];
  });
kind("mail", "postmark-token",
  "Postmark Developer, API overview — authentication (X-Postmark-Server-Token, X-Postmark-Account-Token: UUIDs) — https://postmarkapp.com/developer/api/overview#authentication",
  "UUID in a Postmark header or variable",
  (g) => {
    const a = g.uuid(), b = g.uuid();
    return [
      [a, `curl "https://api.postmarkapp.com/email" -X POST -H "Accept: application/json" -H "Content-Type: application/json" -H "X-Postmark-Server-Token: ${a}" -d @mail.json`],
      [b, `POSTMARK_SERVER_TOKEN=${b}`],
    ];
  });
kind("mail", "sparkpost-key",
  "SparkPost API, Authentication (Authorization: <API key>, 40 hex) — https://developers.sparkpost.com/api/#header-authentication",
  "40 hex",
  (g) => {
    const a = g.hex(40), b = g.hex(40);
    return [
      [a, `curl -X POST https://api.sparkpost.com/api/v1/transmissions -H "Authorization: ${a}" -H "Content-Type: application/json" -d @tx.json`],
      [b, `SPARKPOST_API_KEY=${b}`],
    ];
  });
kind("mail", "brevo-key",
  "Brevo (Sendinblue) Developers, Authentication — api-key header, xkeysib- keys; SMTP keys xsmtpsib- — https://developers.brevo.com/docs/getting-started",
  "xkeysib-/xsmtpsib- + 64 hex + - + 16 alnum",
  (g) => {
    const a = `xkeysib-${g.hex(64)}-${g.alnum(16)}`, b = `xsmtpsib-${g.hex(64)}-${g.alnum(16)}`;
    return [
      [a, `curl --request GET --url https://api.brevo.com/v3/account --header 'accept: application/json' --header 'api-key: ${a}'`],
      [b, `MAIL_HOST=smtp-relay.brevo.com\nMAIL_USERNAME=7c1a2b001@smtp-brevo.com\nMAIL_PASSWORD=${b}`],
    ];
  });
kind("mail", "resend-key",
  "Resend Docs, API keys (re_ prefix, Authorization: Bearer) — https://resend.com/docs/dashboard/api-keys/introduction",
  "re_ + 8 + _ + 24 of [A-Za-z0-9]",
  (g) => {
    const a = `re_${g.alnum(8)}_${g.alnum(24)}`, b = `re_${g.alnum(8)}_${g.alnum(24)}`;
    return [
      [a, `const resend = new Resend('${a}');`],
      [b, `RESEND_API_KEY=${b}`],
    ];
  });

// ---- package registries -----------------------------------------------------------------------
kind("registry", "npm-token",
  "npm Docs, About access tokens (npm_ prefix); .npmrc _authToken — https://docs.npmjs.com/about-access-tokens",
  "npm_ + 36 of [A-Za-z0-9]",
  (g) => {
    const a = `npm_${g.alnum(36)}`, b = `npm_${g.alnum(36)}`, c = `npm_${g.alnum(36)}`;
    return [
      [a, `//registry.npmjs.org/:_authToken=${a}`],
      [b, `NPM_TOKEN=${b} npm publish --access public`],
      [c, `npmAuthToken: "${c}"\nnpmRegistryServer: "https://registry.npmjs.org"`],
    ];
  });
kind("registry", "pypi-token",
  "PyPI Help, API tokens (pypi- prefixed macaroons; username __token__) — https://pypi.org/help/#apitoken ; pypitoken docs",
  "pypi- + base64url macaroon (~180 chars, begins AgEIcHlwaS5vcmc)",
  (g) => {
    const t = () => `pypi-AgEIcHlwaS5vcmc${g.b64url(g.int(150, 200))}`;
    const [a, b, c] = [t(), t(), t()];
    return [
      [a, `[pypi]\n  username = __token__\n  password = ${a}`],
      [b, `twine upload -u __token__ -p ${b} dist/*`],
      [c, `UV_PUBLISH_TOKEN=${c}`],
    ];
  });
kind("registry", "rubygems-key",
  "RubyGems Guides, API key scopes (rubygems_ prefix) and ~/.gem/credentials — https://guides.rubygems.org/api-key-scopes/",
  "rubygems_ + 48 hex",
  (g) => {
    const a = `rubygems_${g.hex(48)}`, b = `rubygems_${g.hex(48)}`;
    return [
      [a, `---\n:rubygems_api_key: ${a}`],
      [b, `GEM_HOST_API_KEY=${b} gem push acme-client-2.4.0.gem`],
    ];
  });
kind("registry", "nuget-key",
  "NuGet Docs, Publishing packages — API keys (oy2 prefix, 46 chars) — https://learn.microsoft.com/nuget/nuget-org/publish-a-package",
  "oy2 + 43 of [a-z0-9]",
  (g) => {
    const a = `oy2${g.lowernum(43)}`, b = `oy2${g.lowernum(43)}`;
    return [
      [a, `dotnet nuget push bin/Release/Acme.Core.3.1.0.nupkg --api-key ${a} --source https://api.nuget.org/v3/index.json`],
      [b, `    <add key="ClearTextPassword" value="${b}" />`],
    ];
  });
kind("registry", "crates-io-token",
  "The Cargo Book, cargo login / credentials.toml; crates.io API tokens (cio prefix) — https://doc.rust-lang.org/cargo/reference/config.html#credentials",
  "cio + 32 of [A-Za-z0-9]",
  (g) => {
    const a = `cio${g.alnum(32)}`, b = `cio${g.alnum(32)}`;
    return [
      [a, `[registry]\ntoken = "${a}"`],
      [b, `CARGO_REGISTRY_TOKEN=${b} cargo publish`],
    ];
  });
kind("registry", "dockerhub-pat",
  "Docker Docs, Personal access tokens (dckr_pat_ prefix; docker login -p / --password-stdin) — https://docs.docker.com/security/for-developers/access-tokens/",
  "dckr_pat_ + 27 of [A-Za-z0-9_-]",
  (g) => {
    const a = `dckr_pat_${g.b64url(27)}`, b = `dckr_pat_${g.b64url(27)}`;
    return [
      [a, `echo "${a}" | docker login -u acmebuild --password-stdin`],
      [b, `DOCKERHUB_TOKEN=${b}`],
    ];
  });
kind("registry", "docker-config-auth",
  "Docker CLI reference, docker login — credentials store (~/.docker/config.json \"auth\": base64(user:password)) — https://docs.docker.com/reference/cli/docker/login/",
  "base64 of user:token in config.json auth",
  (g) => {
    const a = b64(`acmebuild:dckr_pat_${g.b64url(27)}`), b = b64(`AWS:${g.b64url(120)}`);
    return [
      [a, `{\n  "auths": {\n    "https://index.docker.io/v1/": {\n      "auth": "${a}"\n    }\n  }\n}`],
      [b, `{"auths":{"123456789012.dkr.ecr.eu-west-1.amazonaws.com":{"auth":"${b}"}}}`],
    ];
  });
kind("registry", "jfrog-token",
  "JFrog Platform, Access tokens and reference tokens; API key (AKCp) — https://jfrog.com/help/r/jfrog-platform-administration-documentation/access-tokens",
  "reference token: base64 of reftkn:01:<expiry>:<random> (64 chars, starts cmVmdGtu); API key AKCp + 69",
  (g) => {
    const a = b64(`reftkn:01:${g.int(1790000000, 1890000000)}:${g.alnum(27)}`), b = `AKCp${g.alnum(69)}`;
    return [
      [a, `jf config add acme --url=https://acme.jfrog.io --access-token=${a} --interactive=false`],
      [b, `curl -H "X-JFrog-Art-Api: ${b}" -T app.tgz "https://acme.jfrog.io/artifactory/npm-local/app/-/app-1.2.0.tgz"`],
    ];
  });
kind("registry", "packagist-token",
  "Private Packagist, Authentication tokens (packagist_ prefixed tokens in auth.json http-basic) — https://packagist.com/docs/composer-authentication",
  "packagist_ort_/packagist_uut_ + 68 hex",
  (g) => {
    const a = `packagist_ort_${g.hex(68)}`, b = `packagist_uut_${g.hex(68)}`;
    return [
      [a, `{\n    "http-basic": {\n        "repo.packagist.com": {\n            "username": "token",\n            "password": "${a}"\n        }\n    }\n}`],
      [b, `composer config --global --auth http-basic.repo.packagist.com token ${b}`],
    ];
  });
kind("registry", "hex-api-key",
  "Hex docs, Publishing packages (HEX_API_KEY, mix hex.user key generate) — https://hex.pm/docs/publish",
  "32 hex",
  (g) => {
    const a = g.hex(32), b = g.hex(32);
    return [
      [a, `HEX_API_KEY=${a} mix hex.publish --yes`],
      [b, `      - run: mix hex.publish --yes\n        env:\n          HEX_API_KEY: ${b}`],
    ];
  });

// ---- observability ------------------------------------------------------------------------------
kind("observability", "datadog-api-key",
  "Datadog Docs, API and Application Keys (API key: 32 hex, DD_API_KEY, DD-API-KEY header) — https://docs.datadoghq.com/account_management/api-app-keys/",
  "32 hex",
  (g) => {
    const a = g.hex(32), b = g.hex(32), c = g.hex(32);
    return [
      [a, `DD_API_KEY=${a}`],
      [b, `docker run -d --name dd-agent -e DD_API_KEY=${b} -e DD_SITE="datadoghq.eu" gcr.io/datadoghq/agent:7`],
      [c, `api_key: ${c}\nsite: datadoghq.com\nlogs_enabled: true`],
    ];
  });
kind("observability", "datadog-app-key",
  "Datadog Docs, API and Application Keys (application key: 40 hex; DD-APPLICATION-KEY header); ddapp_/ddpat_ prefixes — https://github.com/DataDog/documentation/pull/36844",
  "40 hex; ddapp_/ddpat_ + 40",
  (g) => {
    const a = g.hex(40), b = `ddapp_${g.alnum(40)}`, c = g.hex(40);
    return [
      [a, `curl -X GET "https://api.datadoghq.com/api/v1/validate" -H "DD-API-KEY: \${DD_API_KEY}" -H "DD-APPLICATION-KEY: ${a}"`],
      [b, `DD_APP_KEY=${b}`],
      [c, `provider "datadog" {\n  api_key = var.datadog_api_key\n  app_key = "${c}"\n}`],
    ];
  });
kind("observability", "newrelic-key",
  "New Relic Docs, API keys (user key NRAK-, license key ending NRAL, insert key NRII-) — https://docs.newrelic.com/docs/apis/intro-apis/new-relic-api-keys/",
  "NRAK- + 27 of [A-Z0-9]; license key 36 hex + NRAL",
  (g) => {
    const a = `NRAK-${g.uppernum(27)}`, b = `${g.hex(36)}NRAL`, c = `NRII-${g.b64url(32)}`;
    return [
      [a, `curl -X POST https://api.newrelic.com/graphql -H 'Content-Type: application/json' -H 'API-Key: ${a}' -d '{"query":"{ actor { user { name } } }"}'`],
      [b, `NEW_RELIC_LICENSE_KEY=${b}`],
      [c, `curl -X POST https://insights-collector.newrelic.com/v1/accounts/${g.digit(7)}/events -H "X-Insert-Key: ${c}" -H "Content-Type: application/json" -d @events.json`],
    ];
  });
kind("observability", "sentry-dsn",
  "Sentry Docs, Data Source Name (DSN): https://<public key>@o<org>.ingest.sentry.io/<project> — https://docs.sentry.io/concepts/key-terms/dsn-explainer/",
  "32 hex key in the DSN userinfo (in a legacy public:secret DSN, the second); secret = that key",
  (g) => {
    const a = g.hex(32), b = g.hex(32), c = g.hex(32);
    return [
      [a, `SENTRY_DSN=https://${a}@o${g.digit(6)}.ingest.us.sentry.io/${g.digit(7)}`],
      [b, `sentry_sdk.init(dsn="https://${b}@o${g.digit(6)}.ingest.sentry.io/${g.digit(7)}", traces_sample_rate=0.2)`],
      [c, `raven:\n  dsn: https://${g.hex(32)}:${c}@sentry.acme.io/12`],
    ];
  });
kind("observability", "sentry-auth-token",
  "Sentry Docs, Auth Tokens (organization tokens sntrys_, user tokens sntryu_) — https://docs.sentry.io/account/auth-tokens/",
  "sntryu_ + 64 hex; sntrys_ + base64(JSON) + _ + 43 base64 (secret = last segment)",
  (g) => {
    const a = `sntryu_${g.hex(64)}`;
    const tail = g.str(A.b64, 43);
    const b = `sntrys_${b64(JSON.stringify({ iat: 1767225600.123, url: "https://sentry.io", region_url: "https://us.sentry.io", org: "acme" })).replace(/=+$/, "")}_${tail}`;
    return [
      [a, `curl https://sentry.io/api/0/organizations/acme/projects/ -H 'Authorization: Bearer ${a}'`],
      [tail, `SENTRY_AUTH_TOKEN=${b}`],
    ];
  });
kind("observability", "grafana-token",
  "Grafana Docs, Service account tokens (glsa_) and Grafana Cloud access policy tokens (glc_) — https://grafana.com/docs/grafana/latest/administration/service-accounts/",
  "glsa_ + 32 alnum + _ + 8 hex (secret = whole); glc_ + base64(JSON)",
  (g) => {
    const a = `glsa_${g.alnum(32)}_${g.hex(8)}`;
    const b = `glc_${b64(JSON.stringify({ o: g.digit(6), n: "stack-" + g.digit(6) + "-logs-write", k: g.alnum(24), m: { r: "prod-eu-west-2" } }))}`;
    return [
      [a, `GRAFANA_SERVICE_ACCOUNT_TOKEN=${a}`],
      [b, `  basic_auth:\n    username: ${g.digit(6)}\n    password: ${b}`],
    ];
  });
kind("observability", "honeycomb-key",
  "Honeycomb Docs, API keys (ingest keys hcaik_/hcxik_; configuration keys; X-Honeycomb-Team header) — https://docs.honeycomb.io/configure/environments/manage-api-keys/",
  "hcaik_ + 58 of [a-z0-9]; configuration key 22 of [A-Za-z0-9]",
  (g) => {
    const a = `hcaik_${g.lowernum(58)}`, b = g.alnum(22);
    return [
      [a, `OTEL_EXPORTER_OTLP_HEADERS="x-honeycomb-team=${a}"`],
      [b, `curl https://api.honeycomb.io/1/auth -H "X-Honeycomb-Team: ${b}"`],
    ];
  });
kind("observability", "splunk-hec-token",
  "Splunk Docs, Set up and use HTTP Event Collector (Authorization: Splunk <token>, token is a GUID) — https://docs.splunk.com/Documentation/Splunk/latest/Data/UsetheHTTPEventCollector",
  "GUID after 'Splunk'",
  (g) => {
    const a = g.uuid().toUpperCase(), b = g.uuid();
    return [
      [a, `curl https://hec.acme.splunkcloud.com:8088/services/collector/event -H "Authorization: Splunk ${a}" -d '{"event": "hello"}'`],
      [b, `[splunk]\n  endpoint = "https://splunk.acme.io:8088"\n  token = "${b}"`],
    ];
  });
kind("observability", "elastic-api-key",
  "Elasticsearch Guide, Create API key API (encoded = base64(id:api_key); Authorization: ApiKey) — https://www.elastic.co/guide/en/elasticsearch/reference/current/security-api-create-api-key.html",
  "base64(20-char id : 22-char key), 60 chars",
  (g) => {
    const a = b64(`${g.b64url(20)}:${g.b64url(22)}`), b = b64(`${g.b64url(20)}:${g.b64url(22)}`);
    return [
      [a, `curl -H "Authorization: ApiKey ${a}" "https://es.acme.io:9243/_cat/indices?v"`],
      [b, `output.elasticsearch:\n  hosts: ["https://es01:9200"]\n  api_key: "${b}"`],
    ];
  });
kind("observability", "pagerduty-key",
  "PagerDuty Developer, API authentication (Authorization: Token token=…) and Events API v2 routing keys (32 chars) — https://developer.pagerduty.com/docs/authentication",
  "REST token 20 of [A-Za-z0-9_+-]; routing key 32 hex",
  (g) => {
    const a = `u+${g.str(A.alnum + "_-", 18)}`, b = g.hex(32);
    return [
      [a, `curl --request GET --url https://api.pagerduty.com/incidents --header 'Authorization: Token token=${a}'`],
      [b, `{"routing_key": "${b}", "event_action": "trigger", "payload": {"summary": "disk full on db-3", "severity": "critical", "source": "db-3"}}`],
    ];
  });
kind("observability", "dynatrace-token",
  "Dynatrace Docs, Dynatrace API — Tokens and authentication (dt0c01.<24 public>.<64 secret>) — https://docs.dynatrace.com/docs/shortlink/api-authentication",
  "dt0c01 + . + 24 of [A-Z0-9] + . + 64 of [A-Z0-9]; secret = the 64",
  (g) => {
    const a = g.uppernum(64), b = g.uppernum(64);
    return [
      [a, `curl -X GET "https://abc12345.live.dynatrace.com/api/v2/metrics" -H "Authorization: Api-Token dt0c01.${g.uppernum(24)}.${a}"`],
      [b, `DT_API_TOKEN=dt0c01.${g.uppernum(24)}.${b}`],
    ];
  });
kind("observability", "lightstep-token",
  "ServiceNow Cloud Observability (Lightstep), Create and manage access tokens (lightstep-access-token header) — https://docs.lightstep.com/docs/create-and-manage-access-tokens",
  "access token: 128 of base64 alphabet (format from knowledge, low confidence)",
  (g) => {
    const a = g.str(A.b64, 128), b = g.str(A.b64, 128);
    return [
      [a, `OTEL_EXPORTER_OTLP_HEADERS=lightstep-access-token=${a}`],
      [b, `    headers:\n      "lightstep-access-token": "${b}"`],
    ];
  });

// ---- data platforms -------------------------------------------------------------------------------
kind("data", "supabase-service-key",
  "Supabase Docs, Understanding API keys (service_role JWT; sb_secret_ keys) — https://supabase.com/docs/guides/api/api-keys",
  "HS256 JWT with role service_role; sb_secret_ + 31",
  (g) => {
    const ref = g.lower(20);
    const a = g.jwt({ iss: "supabase", ref, role: "service_role", iat: 1714000000 + g.int(0, 9e6), exp: 2029000000 + g.int(0, 9e6) });
    const b = `sb_secret_${g.b64url(31)}`;
    return [
      [a, `SUPABASE_URL=https://${ref}.supabase.co\nSUPABASE_SERVICE_ROLE_KEY=${a}`],
      [b, `const supabase = createClient(process.env.SUPABASE_URL, '${b}')`],
    ];
  });
kind("data", "planetscale-token",
  "PlanetScale Docs, Service tokens (pscale_tkn_) and connection passwords (pscale_pw_) — https://planetscale.com/docs/concepts/service-tokens",
  "pscale_tkn_/pscale_pw_ + 43 of [A-Za-z0-9_-]",
  (g) => {
    const a = `pscale_tkn_${g.b64url(43)}`, b = `pscale_pw_${g.b64url(43)}`;
    return [
      [a, `pscale branch list shop --service-token-id ${g.lowernum(12)} --service-token ${a}`],
      [b, `DATABASE_URL='mysql://${g.lowernum(12)}:${b}@aws.connect.psdb.cloud/shop?ssl={"rejectUnauthorized":true}'`],
    ];
  });
kind("data", "neon-credentials",
  "Neon Docs, Manage API keys (napi_ prefix) and connection strings (npg_ passwords) — https://neon.com/docs/manage/api-keys",
  "napi_ + 60 of [a-z0-9]; npg_ + 12 of [A-Za-z0-9]",
  (g) => {
    const a = `napi_${g.lowernum(60)}`, b = `npg_${g.alnum(12)}`;
    return [
      [a, `curl 'https://console.neon.tech/api/v2/projects' -H 'Accept: application/json' -H "Authorization: Bearer ${a}"`],
      [b, `DATABASE_URL=postgresql://neondb_owner:${b}@ep-cool-darkness-a1b2c3d4-pooler.eu-central-1.aws.neon.tech/neondb?sslmode=require`],
    ];
  });
kind("data", "mongodb-atlas-api-key",
  "MongoDB Atlas, Grant programmatic access (public key 8 chars, private key UUID; service account mdb_sa_sk_) — https://www.mongodb.com/docs/atlas/configure-api-access/",
  "private key: UUID; mdb_sa_sk_ + 40",
  (g) => {
    const a = g.uuid(), b = `mdb_sa_sk_${g.b64url(40)}`;
    return [
      [a, `MONGODB_ATLAS_PUBLIC_KEY=${g.lower(8)}\nMONGODB_ATLAS_PRIVATE_KEY=${a}`],
      [b, `atlas auth login --clientId mdb_sa_id_${g.hex(24)} --clientSecret ${b}`],
    ];
  });
kind("data", "firebase-fcm-server-key",
  "Firebase Cloud Messaging (legacy HTTP API) server key, Authorization: key=AAAA…:APA91b… — https://firebase.google.com/docs/cloud-messaging/auth-server",
  "AAAA + 7 + : + APA91b + 134 of [A-Za-z0-9_-]",
  (g) => {
    const a = `AAAA${g.b64url(7)}:APA91b${g.b64url(134)}`;
    return [
      [a, `curl -X POST -H "Authorization: key=${a}" -H "Content-Type: application/json" https://fcm.googleapis.com/fcm/send -d @push.json`],
    ];
  });
kind("data", "databricks-token",
  "Databricks Docs, Personal access token authentication (dapi prefix) — https://docs.databricks.com/dev-tools/auth/pat.html",
  "dapi + 32 hex (optional -2 suffix)",
  (g) => {
    const a = `dapi${g.hex(32)}`, b = `dapi${g.hex(32)}-2`;
    return [
      [a, `[DEFAULT]\nhost  = https://adb-${g.digit(16)}.7.azuredatabricks.net\ntoken = ${a}`],
      [b, `DATABRICKS_TOKEN=${b}`],
    ];
  });
kind("data", "pinecone-key",
  "Pinecone Docs, Authentication (Api-Key header; pcsk_ prefixed keys) — https://docs.pinecone.io/guides/projects/manage-api-keys",
  "pcsk_ + 5 + _ + 64 of [A-Za-z0-9]",
  (g) => {
    const a = `pcsk_${g.alnum(5)}_${g.alnum(64)}`, b = `pcsk_${g.alnum(5)}_${g.alnum(64)}`;
    return [
      [a, `pc = Pinecone(api_key="${a}")`],
      [b, `curl "https://api.pinecone.io/indexes" -H "Api-Key: ${b}" -H "X-Pinecone-API-Version: 2025-04"`],
    ];
  });
kind("data", "algolia-admin-key",
  "Algolia Docs, API keys (Admin API key: 32 hex; X-Algolia-API-Key header) — https://www.algolia.com/doc/guides/security/api-keys/",
  "32 hex",
  (g) => {
    const a = g.hex(32), b = g.hex(32);
    return [
      [a, `ALGOLIA_APP_ID=${g.uppernum(10)}\nALGOLIA_ADMIN_KEY=${a}`],
      [b, `curl -X POST "https://${g.uppernum(10)}.algolia.net/1/indexes/products/batch" -H "X-Algolia-API-Key: ${b}" -H "X-Algolia-Application-Id: ${g.uppernum(10)}" -d @batch.json`],
    ];
  });
kind("data", "confluent-api-secret",
  "Confluent Cloud Docs, Use API keys (16-char key, 64-char secret; sasl.jaas.config) — https://docs.confluent.io/cloud/current/security/authenticate/workload-identities/service-accounts/api-keys/overview.html",
  "secret: 64 of [A-Za-z0-9+/]",
  (g) => {
    const a = g.str(A.alnum + "+/", 64), b = g.str(A.alnum + "+/", 64);
    return [
      [a, `sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="${g.uppernum(16)}" password="${a}";`],
      [b, `CONFLUENT_CLOUD_API_KEY=${g.uppernum(16)}\nCONFLUENT_CLOUD_API_SECRET=${b}`],
    ];
  });

// ---- identity -------------------------------------------------------------------------------------
kind("identity", "okta-api-token",
  "Okta Developer, Create an API token (Authorization: SSWS <token>; 42 chars starting 00) — https://developer.okta.com/docs/guides/create-an-api-token/",
  "00 + 40 of [A-Za-z0-9_-]",
  (g) => {
    const a = `00${g.b64url(40)}`, b = `00${g.b64url(40)}`;
    return [
      [a, `curl -v -X GET -H "Accept: application/json" -H "Authorization: SSWS ${a}" "https://acme.okta.com/api/v1/users?limit=25"`],
      [b, `okta:\n  client:\n    orgUrl: "https://acme.okta.com"\n    token: ${b}`],
    ];
  });
kind("identity", "auth0-client-secret",
  "Auth0 Docs, Application credentials (client secret, 64 chars) — https://auth0.com/docs/get-started/applications/application-credentials",
  "64 of [A-Za-z0-9_-]",
  (g) => {
    const a = g.b64url(64), b = g.b64url(64);
    return [
      [a, `AUTH0_DOMAIN=acme.eu.auth0.com\nAUTH0_CLIENT_ID=${g.alnum(32)}\nAUTH0_CLIENT_SECRET=${a}`],
      [b, `curl --request POST --url https://acme.us.auth0.com/oauth/token --header 'content-type: application/json' --data '{"client_id":"${g.alnum(32)}","client_secret":"${b}","audience":"https://api.acme.io","grant_type":"client_credentials"}'`],
    ];
  });
kind("identity", "entra-client-secret",
  "Microsoft identity platform, client secrets (appsettings.json ClientSecret; az ad app credential reset) — https://learn.microsoft.com/entra/msidweb/authentication/client-secrets (value layout from knowledge)",
  "3 alnum + digit + Q~ + 34 of [A-Za-z0-9_.~-] (40 chars)",
  (g) => {
    const t = () => `${g.alnum(3)}${g.digit(1)}Q~${g.str(A.alnum + "_.~-", 34)}`;
    const [a, b, c] = [t(), t(), t()];
    return [
      [a, `  "AzureAd": {\n    "Instance": "https://login.microsoftonline.com/",\n    "TenantId": "${g.uuid()}",\n    "ClientId": "${g.uuid()}",\n    "ClientSecret": "${a}"\n  }`],
      [b, `{\n  "appId": "${g.uuid()}",\n  "password": "${b}",\n  "tenant": "${g.uuid()}"\n}`],
      [c, `AZURE_CLIENT_SECRET=${c}`],
    ];
  });
kind("identity", "google-oauth-client-secret",
  "Google Identity, OAuth 2.0 client secrets (GOCSPX- prefix; client_secret.json) — https://developers.google.com/identity/protocols/oauth2",
  "GOCSPX- + 28 of [A-Za-z0-9_-]",
  (g) => {
    const a = `GOCSPX-${g.b64url(28)}`, b = `GOCSPX-${g.b64url(28)}`;
    return [
      [a, `{"web":{"client_id":"${g.digit(12)}-${g.lowernum(32)}.apps.googleusercontent.com","project_id":"acme-login","auth_uri":"https://accounts.google.com/o/oauth2/auth","client_secret":"${a}"}}`],
      [b, `GOOGLE_CLIENT_SECRET=${b}`],
    ];
  });
kind("identity", "clerk-secret-key",
  "Clerk Docs, API keys (secret key sk_live_/sk_test_, CLERK_SECRET_KEY) — https://clerk.com/docs/deployments/clerk-environment-variables",
  "sk_live_/sk_test_ + 42 of [A-Za-z0-9]",
  (g) => {
    const a = `sk_live_${g.alnum(42)}`, b = `sk_test_${g.alnum(42)}`;
    return [
      [a, `NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY=pk_live_${b64("clerk.acme.io$").replace(/=+$/, "")}\nCLERK_SECRET_KEY=${a}`],
      [b, `const clerk = createClerkClient({ secretKey: '${b}' })`],
    ];
  });
kind("identity", "jwt-bearer",
  "RFC 7519 (JSON Web Token) and RFC 6750 (Bearer token usage) — https://www.rfc-editor.org/rfc/rfc7519",
  "base64url(header).base64url(claims).signature (HS256 43 chars, RS256 342 chars)",
  (g) => {
    const a = g.jwt({ sub: g.uuid(), email: "jane.doe@acme.io", scope: "read:orders write:orders", iat: 1767225600, exp: 1767229200 });
    const b = g.jwt({ iss: "https://auth.acme.io/", sub: "auth0|" + g.hex(24), aud: "https://api.acme.io", iat: 1767225600, exp: 1767312000 }, 342, "RS256");
    const c = g.jwt({ sub: g.digit(8), name: "svc-billing", role: "admin", iat: 1767225600 });
    return [
      [a, `GET /api/v2/orders?limit=50 HTTP/1.1\nHost: api.acme.io\nAuthorization: Bearer ${a}\nAccept: application/json`],
      [b, `2026-03-11T09:12:44Z WARN  auth: token rejected (aud mismatch): ${b}`],
      [c, `Set-Cookie: session=${c}; Path=/; HttpOnly; Secure; SameSite=Lax`],
    ];
  });

// ---- AI providers -----------------------------------------------------------------------------------
kind("ai", "openai-key",
  "OpenAI Platform, API keys (project keys sk-proj-, service-account keys sk-svcacct-; Authorization: Bearer) — https://platform.openai.com/docs/api-reference/authentication",
  "sk-proj-/sk-svcacct- + ~156 of [A-Za-z0-9_-] containing T3BlbkFJ; legacy sk- + 48",
  (g) => {
    const a = `sk-proj-${g.b64url(74)}T3BlbkFJ${g.b64url(74)}`, b = `sk-svcacct-${g.b64url(74)}T3BlbkFJ${g.b64url(74)}`, c = `sk-${g.alnum(20)}T3BlbkFJ${g.alnum(20)}`;
    return [
      [a, `OPENAI_API_KEY=${a}`],
      [b, `{"id":"call_${g.alnum(24)}","type":"function","function":{"name":"run_shell","arguments":"{\\"cmd\\":\\"export OPENAI_API_KEY=${b} \\u0026\\u0026 python eval.py\\"}"}}`],
      [c, `openai.api_key = "${c}"`],
    ];
  });
kind("ai", "anthropic-key",
  "Anthropic API, Getting started (x-api-key header; console keys sk-ant-api03-, admin keys sk-ant-admin01-) — https://docs.anthropic.com/en/api/getting-started",
  "sk-ant-api03- + 93 of [A-Za-z0-9_-] + AA",
  (g) => {
    const a = `sk-ant-api03-${g.b64url(93)}AA`, b = `sk-ant-admin01-${g.b64url(93)}AA`, c = `sk-ant-api03-${g.b64url(93)}AA`;
    return [
      [a, `curl https://api.anthropic.com/v1/messages -H "x-api-key: ${a}" -H "anthropic-version: 2023-06-01" -H "content-type: application/json" -d @body.json`],
      [b, `ANTHROPIC_ADMIN_KEY=${b}`],
      [c, `client = anthropic.Anthropic(api_key="${c}")`],
    ];
  });
kind("ai", "cohere-key",
  "Cohere Docs, API keys (CO_API_KEY; 40 chars) — https://docs.cohere.com/docs/rate-limits",
  "40 of [A-Za-z0-9]",
  (g) => {
    const a = g.alnum(40), b = g.alnum(40);
    return [
      [a, `CO_API_KEY=${a}`],
      [b, `co = cohere.ClientV2(api_key="${b}")`],
    ];
  });
kind("ai", "mistral-key",
  "Mistral AI Docs, Quickstart — API key (MISTRAL_API_KEY; Authorization: Bearer) — https://docs.mistral.ai/getting-started/quickstart/",
  "32 of [A-Za-z0-9]",
  (g) => {
    const a = g.alnum(32), b = g.alnum(32);
    return [
      [a, `MISTRAL_API_KEY=${a}`],
      [b, `curl --location "https://api.mistral.ai/v1/chat/completions" --header 'Content-Type: application/json' --header "Authorization: Bearer ${b}" --data @chat.json`],
    ];
  });
kind("ai", "groq-key",
  "GroqCloud Docs, Quickstart (GROQ_API_KEY; gsk_ keys) — https://console.groq.com/docs/quickstart",
  "gsk_ + 52 of [A-Za-z0-9]",
  (g) => {
    const a = `gsk_${g.alnum(52)}`, b = `gsk_${g.alnum(52)}`;
    return [
      [a, `GROQ_API_KEY=${a}`],
      [b, `const groq = new Groq({ apiKey: "${b}" });`],
    ];
  });
kind("ai", "replicate-token",
  "Replicate Docs, Authentication (REPLICATE_API_TOKEN, r8_ prefix) — https://replicate.com/docs/reference/http#authentication",
  "r8_ + 37 of [A-Za-z0-9]",
  (g) => {
    const a = `r8_${g.alnum(37)}`, b = `r8_${g.alnum(37)}`;
    return [
      [a, `export REPLICATE_API_TOKEN=${a}`],
      [b, `curl -s -X POST -H "Authorization: Bearer ${b}" -H "Content-Type: application/json" -d @input.json https://api.replicate.com/v1/predictions`],
    ];
  });
kind("ai", "huggingface-token",
  "Hugging Face Hub docs, User access tokens (hf_ prefix; HF_TOKEN) — https://huggingface.co/docs/hub/security-tokens",
  "hf_ + 34 of [A-Za-z]",
  (g) => {
    const a = `hf_${g.letters(34)}`, b = `hf_${g.letters(34)}`, c = `hf_${g.letters(34)}`;
    return [
      [a, `huggingface-cli login --token ${a}`],
      [b, `HF_TOKEN=${b}`],
      [c, `model = AutoModelForCausalLM.from_pretrained("acme/llama-ft", token="${c}")`],
    ];
  });
kind("ai", "together-key",
  "Together AI Docs, Quickstart (TOGETHER_API_KEY; 64 hex keys, tgp_v1_ keys) — https://docs.together.ai/docs/quickstart",
  "64 hex; tgp_v1_ + 43 of [A-Za-z0-9_-]",
  (g) => {
    const a = g.hex(64), b = `tgp_v1_${g.b64url(43)}`;
    return [
      [a, `TOGETHER_API_KEY=${a}`],
      [b, `client = Together(api_key="${b}")`],
    ];
  });
kind("ai", "perplexity-key",
  "Perplexity API docs, Getting started (pplx- keys, Authorization: Bearer) — https://docs.perplexity.ai/guides/getting-started",
  "pplx- + 48 of [A-Za-z0-9]",
  (g) => {
    const a = `pplx-${g.alnum(48)}`, b = `pplx-${g.alnum(48)}`;
    return [
      [a, `PERPLEXITY_API_KEY=${a}`],
      [b, `curl https://api.perplexity.ai/chat/completions -H "Authorization: Bearer ${b}" -H "Content-Type: application/json" -d @q.json`],
    ];
  });
kind("ai", "xai-key",
  "xAI Docs, API reference — authentication (xai- keys; XAI_API_KEY) — https://docs.x.ai/docs/api-reference",
  "xai- + 80 of [A-Za-z0-9]",
  (g) => {
    const a = `xai-${g.alnum(80)}`, b = `xai-${g.alnum(80)}`;
    return [
      [a, `XAI_API_KEY=${a}`],
      [b, `client = OpenAI(base_url="https://api.x.ai/v1", api_key="${b}")`],
    ];
  });

// ---- platforms and SaaS -------------------------------------------------------------------------------
kind("platform", "vercel-token",
  "Vercel Docs, Creating an access token (vercel --token, VERCEL_TOKEN; 24 chars) — https://vercel.com/docs/rest-api#creating-an-access-token",
  "24 of [A-Za-z0-9]",
  (g) => {
    const a = g.alnum(24), b = g.alnum(24);
    return [
      [a, `npx vercel deploy --prod --token ${a}`],
      [b, `VERCEL_TOKEN=${b}`],
    ];
  });
kind("platform", "netlify-token",
  "Netlify Docs, Personal access tokens (nfp_ prefix; NETLIFY_AUTH_TOKEN) — https://docs.netlify.com/api/get-started/#authentication",
  "nfp_ + 36 of [A-Za-z0-9] + 4 hex",
  (g) => {
    const a = `nfp_${g.alnum(36)}${g.hex(4)}`, b = `nfp_${g.alnum(36)}${g.hex(4)}`;
    return [
      [a, `NETLIFY_AUTH_TOKEN=${a} netlify deploy --prod --dir=dist`],
      [b, `curl -H "Authorization: Bearer ${b}" https://api.netlify.com/api/v1/sites`],
    ];
  });
kind("platform", "heroku-api-key",
  "Heroku Dev Center, Heroku CLI authentication (.netrc api.heroku.com; HEROKU_API_KEY; HRKU- tokens) — https://devcenter.heroku.com/articles/authentication",
  "HRKU- + 60 of [A-Za-z0-9_-]; legacy UUID",
  (g) => {
    const a = `HRKU-AA${g.b64url(58)}`, b = g.uuid();
    return [
      [a, `machine api.heroku.com\n  login jane@acme.io\n  password ${a}\nmachine git.heroku.com\n  login jane@acme.io\n  password ${a}`],
      [b, `HEROKU_API_KEY=${b}`],
    ];
  });
kind("platform", "cloudflare-credentials",
  "Cloudflare Fundamentals, API tokens (40 chars, Authorization: Bearer) and Global API key (37 hex, X-Auth-Key) — https://developers.cloudflare.com/fundamentals/api/get-started/",
  "API token 40 of [A-Za-z0-9_-]; global key 37 hex",
  (g) => {
    const a = g.b64url(40), b = g.hex(37), c = g.b64url(40);
    return [
      [a, `CLOUDFLARE_API_TOKEN=${a}`],
      [b, `curl https://api.cloudflare.com/client/v4/zones -H "X-Auth-Email: ops@acme.io" -H "X-Auth-Key: ${b}"`],
      [c, `name = "edge-worker"\n# wrangler.toml\n[vars]\nCF_API_TOKEN = "${c}"`],
    ];
  });
kind("platform", "flyio-token",
  "Fly.io Docs, Access tokens (fly tokens create; FLY_API_TOKEN: \"FlyV1 fm2_…\" macaroons) — https://fly.io/docs/security/tokens/",
  "FlyV1 fm2_<base64>,fm2_<base64>; secret = last macaroon",
  (g) => {
    const tail = `fm2_lJPE${g.str(A.b64, 180)}`;
    return [
      [tail, `FLY_API_TOKEN="FlyV1 fm2_lJPE${g.str(A.b64, 300)},${tail}"`],
    ];
  });
kind("platform", "render-key",
  "Render Docs, API keys (rnd_ prefix) — https://render.com/docs/api#1-create-an-api-key",
  "rnd_ + 32 of [A-Za-z0-9]",
  (g) => {
    const a = `rnd_${g.alnum(32)}`, b = `rnd_${g.alnum(32)}`;
    return [
      [a, `RENDER_API_KEY=${a}`],
      [b, `curl --request GET --url 'https://api.render.com/v1/services?limit=20' --header 'Accept: application/json' --header 'Authorization: Bearer ${b}'`],
    ];
  });
kind("platform", "doppler-token",
  "Doppler Docs, Service tokens / personal tokens (dp.st., dp.pt., dp.sa.) — https://docs.doppler.com/docs/service-tokens",
  "dp.pt./dp.st.<config>./dp.sa. + 43 of [A-Za-z0-9]",
  (g) => {
    const a = `dp.st.prd.${g.alnum(43)}`, b = `dp.pt.${g.alnum(43)}`;
    return [
      [a, `DOPPLER_TOKEN=${a}`],
      [b, `doppler configure set token ${b} --scope /`],
    ];
  });
kind("platform", "1password-service-account-token",
  "1Password Developer, Service accounts (OP_SERVICE_ACCOUNT_TOKEN, ops_ prefix) — https://developer.1password.com/docs/service-accounts/get-started/",
  "ops_ + base64url(JSON) ~ 600 chars",
  (g) => {
    const payload = { signInAddress: "acme.1password.com", userAuth: { method: "SRPg-4096", alg: "PBES2g-HS256", iterations: 650000, salt: g.b64url(22) }, email: `${g.lower(13)}@1passwordserviceaccounts.com`, srpX: g.hex(64), muk: { alg: "A256GCM", ext: true, k: g.b64url(43), key_ops: ["encrypt", "decrypt"], kty: "oct", kid: "mp" }, secretKey: `A3-${g.uppernum(6)}-${g.uppernum(6)}-${g.uppernum(5)}-${g.uppernum(5)}-${g.uppernum(5)}-${g.uppernum(5)}`, throttleSecret: { seed: g.hex(64), deviceUuid: g.lowernum(26) }, deviceUuid: g.lowernum(26) };
    const a = `ops_${b64url(JSON.stringify(payload))}`;
    return [
      [a, `export OP_SERVICE_ACCOUNT_TOKEN=${a}`],
    ];
  });
kind("platform", "vault-token",
  "HashiCorp Vault, Tokens (service tokens hvs., batch hvb.; legacy s.) — https://developer.hashicorp.com/vault/docs/concepts/tokens ; upgrade-to-1.0.0 notes",
  "hvs. + 24 of [A-Za-z0-9] (or CAES… 90+); legacy s. + 24",
  (g) => {
    const a = `hvs.${g.alnum(24)}`, b = `hvs.CAESI${g.b64url(86)}`, c = `s.${g.alnum(24)}`;
    return [
      [a, `export VAULT_TOKEN=${a}`],
      [b, `Key                  Value\n---                  -----\ntoken                ${b}\ntoken_accessor       ${g.alnum(24)}\ntoken_duration       768h\ntoken_renewable      true`],
      [c, `curl --header "X-Vault-Token: ${c}" https://vault.acme.io:8200/v1/secret/data/payments`],
    ];
  });
kind("platform", "terraform-cloud-token",
  "HCP Terraform, API tokens (credentials.tfrc.json; <14>.atlasv1.<67>) — https://developer.hashicorp.com/terraform/cloud-docs/users-teams-organizations/api-tokens",
  "14 alnum + .atlasv1. + 67 of [A-Za-z0-9]; secret = last segment",
  (g) => {
    const a = g.alnum(67), b = g.alnum(67);
    return [
      [a, `{\n  "credentials": {\n    "app.terraform.io": {\n      "token": "${g.alnum(14)}.atlasv1.${a}"\n    }\n  }\n}`],
      [b, `TF_TOKEN_app_terraform_io=${g.alnum(14)}.atlasv1.${b}`],
    ];
  });
kind("platform", "pulumi-token",
  "Pulumi Docs, Access tokens (PULUMI_ACCESS_TOKEN, pul- prefix) — https://www.pulumi.com/docs/pulumi-cloud/access-management/access-tokens/",
  "pul- + 40 hex",
  (g) => {
    const a = `pul-${g.hex(40)}`, b = `pul-${g.hex(40)}`;
    return [
      [a, `PULUMI_ACCESS_TOKEN=${a} pulumi up --yes --stack acme/prod`],
      [b, `      - uses: pulumi/actions@v5\n        env:\n          PULUMI_ACCESS_TOKEN: ${b}`],
    ];
  });
kind("platform", "postman-key",
  "Postman Learning Center, Generate a Postman API key (PMAK-<24 hex>-<34 hex>, X-Api-Key) — https://learning.postman.com/docs/developer/postman-api/authentication/",
  "PMAK- + 24 hex + - + 34 hex; secret = last segment",
  (g) => {
    const a = g.hex(34), b = g.hex(34);
    return [
      [a, `curl --location 'https://api.getpostman.com/collections' --header 'X-Api-Key: PMAK-${g.hex(24)}-${a}'`],
      [b, `postman login --with-api-key PMAK-${g.hex(24)}-${b}`],
    ];
  });
kind("platform", "linear-key",
  "Linear Developers, API and webhooks — personal API keys (lin_api_) — https://linear.app/developers/graphql#personal-api-keys",
  "lin_api_ + 40 of [A-Za-z0-9]",
  (g) => {
    const a = `lin_api_${g.alnum(40)}`, b = `lin_api_${g.alnum(40)}`;
    return [
      [a, `curl -X POST -H "Content-Type: application/json" -H "Authorization: ${a}" --data '{ "query": "{ viewer { id name } }" }' https://api.linear.app/graphql`],
      [b, `LINEAR_API_KEY=${b}`],
    ];
  });
kind("platform", "notion-token",
  "Notion Developers, Authorization — internal integration secrets (ntn_ prefix; legacy secret_) — https://developers.notion.com/docs/authorization",
  "ntn_ + 46 of [A-Za-z0-9]; secret_ + 43",
  (g) => {
    const a = `ntn_${g.digit(11)}${g.alnum(35)}`, b = `secret_${g.alnum(43)}`;
    return [
      [a, `NOTION_TOKEN=${a}`],
      [b, `const notion = new Client({ auth: "${b}" })`],
    ];
  });
kind("platform", "asana-pat",
  "Asana Developers, Personal access token (Authorization: Bearer 2/<user>/<id>:<secret>) — https://developers.asana.com/docs/personal-access-token",
  "2/<16 digits>/<16 digits>:<32 hex>; secret = after the colon",
  (g) => {
    const a = g.hex(32), b = g.hex(32);
    return [
      [a, `curl https://app.asana.com/api/1.0/users/me -H "Authorization: Bearer 2/${g.digit(16)}/${g.digit(16)}:${a}"`],
      [b, `ASANA_ACCESS_TOKEN=2/${g.digit(16)}/${g.digit(16)}:${b}`],
    ];
  });
kind("platform", "figma-token",
  "Figma Developers, Personal access tokens (figd_ prefix; X-Figma-Token header) — https://www.figma.com/developers/api#access-tokens",
  "figd_ + 40 of [A-Za-z0-9_-]",
  (g) => {
    const a = `figd_${g.b64url(40)}`, b = `figd_${g.b64url(40)}`;
    return [
      [a, `curl -H 'X-Figma-Token: ${a}' 'https://api.figma.com/v1/files/${g.alnum(22)}'`],
      [b, `FIGMA_TOKEN=${b}`],
    ];
  });
kind("platform", "airtable-pat",
  "Airtable Support, Creating personal access tokens — https://support.airtable.com/docs/creating-personal-access-tokens (layout pat<14>.<64 hex> from knowledge)",
  "pat + 14 of [A-Za-z0-9] + . + 64 hex; secret = last segment",
  (g) => {
    const a = g.hex(64), b = g.hex(64);
    return [
      [a, `curl "https://api.airtable.com/v0/app${g.alnum(14)}/Orders" -H "Authorization: Bearer pat${g.alnum(14)}.${a}"`],
      [b, `AIRTABLE_TOKEN=pat${g.alnum(14)}.${b}`],
    ];
  });
kind("platform", "contentful-token",
  "Contentful, Authentication — Content Management API personal access tokens (CFPAT-) and delivery tokens — https://www.contentful.com/developers/docs/references/authentication/",
  "CFPAT- + 43 of [A-Za-z0-9_-]; delivery token 43",
  (g) => {
    const a = `CFPAT-${g.b64url(43)}`, b = g.b64url(43);
    return [
      [a, `contentful login --management-token ${a}`],
      [b, `CONTENTFUL_SPACE_ID=${g.lowernum(12)}\nCONTENTFUL_DELIVERY_TOKEN=${b}`],
    ];
  });
kind("platform", "mapbox-secret-token",
  "Mapbox Docs, Access tokens (secret tokens sk., public tokens pk.) — https://docs.mapbox.com/accounts/guides/tokens/",
  "sk. + base64url({u,a}) + . + 22 of [A-Za-z0-9_-]; secret = last segment",
  (g) => {
    const t = () => { const tail = g.b64url(22); return [tail, `sk.${b64url(JSON.stringify({ u: "acme-maps", a: g.lowernum(25) }))}.${tail}`]; };
    const [[a, A1], [b, B1]] = [t(), t()];
    return [
      [a, `MAPBOX_DOWNLOADS_TOKEN=${A1}`],
      [b, `machine api.mapbox.com\nlogin mapbox\npassword ${B1}`],
    ];
  });
kind("platform", "twitch-client-secret",
  "Twitch Developers, Authentication — registering your app (client secret, 30 chars) — https://dev.twitch.tv/docs/authentication/register-app/",
  "30 of [a-z0-9]",
  (g) => {
    const a = g.lowernum(30), b = g.lowernum(30);
    return [
      [a, `curl -X POST 'https://id.twitch.tv/oauth2/token' -H 'Content-Type: application/x-www-form-urlencoded' -d 'client_id=${g.lowernum(30)}&client_secret=${a}&grant_type=client_credentials'`],
      [b, `TWITCH_CLIENT_SECRET=${b}`],
    ];
  });
kind("platform", "dropbox-token",
  "Dropbox Developers, OAuth guide (short-lived access tokens sl.…) — https://developers.dropbox.com/oauth-guide",
  "sl. + 135 of [A-Za-z0-9_-]",
  (g) => {
    const a = `sl.${g.b64url(135)}`, b = `sl.u.${g.b64url(140)}`;
    return [
      [a, `curl -X POST https://api.dropboxapi.com/2/files/list_folder --header "Authorization: Bearer ${a}" --header "Content-Type: application/json" --data '{"path": ""}'`],
      [b, `DROPBOX_ACCESS_TOKEN=${b}`],
    ];
  });
kind("platform", "box-client-secret",
  "Box Developer, Client credentials grant / developer tokens (32-char values) — https://developer.box.com/guides/authentication/client-credentials/",
  "32 of [A-Za-z0-9]",
  (g) => {
    const a = g.alnum(32), b = g.alnum(32);
    return [
      [a, `{\n  "boxAppSettings": {\n    "clientID": "${g.lowernum(32)}",\n    "clientSecret": "${a}"\n  },\n  "enterpriseID": "${g.digit(9)}"\n}`],
      [b, `BOX_DEVELOPER_TOKEN=${b}`],
    ];
  });
kind("platform", "zoom-client-secret",
  "Zoom Developer, Server-to-Server OAuth (account_id, client_id, client_secret) — https://developers.zoom.us/docs/internal-apps/s2s-oauth/",
  "32 of [A-Za-z0-9]",
  (g) => {
    const a = g.alnum(32), b = g.alnum(32);
    return [
      [a, `ZOOM_ACCOUNT_ID=${g.b64url(22)}\nZOOM_CLIENT_ID=${g.b64url(22)}\nZOOM_CLIENT_SECRET=${a}`],
      [b, `curl -X POST "https://zoom.us/oauth/token?grant_type=account_credentials&account_id=${g.b64url(22)}" -H "Authorization: Basic $(echo -n '${g.b64url(22)}:${b}' | base64)"`],
    ];
  });

// ---- generic: bare values whose only sign is where they stand -----------------------------------------
kind("generic", "bare-hex-key",
  "generic: assignment position (many vendors issue 32/40/64-hex keys with no prefix)",
  "32, 40 or 64 hex as a value of a key-, token- or secret-named field, flag or header",
  (g) => {
    const h = [g.hex(32), g.hex(40), g.hex(64), g.hex(32), g.hex(64), g.hex(40), g.HEX(32)];
    return [
      [h[0], `API_KEY=${h[0]}`],
      [h[1], `./sync-inventory --api-key ${h[1]} --region eu`],
      [h[2], `X-Api-Key: ${h[2]}`],
      [h[3], `  webhook:\n    url: https://hooks.partner.example/ingest\n    secret: ${h[3]}`],
      [h[4], `SECRET_KEY_BASE=${h[4]}`],
      [h[5], `{"integration": "warehouse-sync", "token": "${h[5]}", "enabled": true}`],
      [h[6], `app.config["SECRET_KEY"] = "${h[6]}"`],
    ];
  });
kind("generic", "bare-random-token",
  "generic: assignment position (opaque tokens with no vendor prefix, as most in-house and many SaaS tokens are)",
  "20–64 of [A-Za-z0-9], base64 or base64url as the value of a credential-named field, flag, header or argument",
  (g) => {
    const v = [g.alnum(32), g.b64url(40), g.str(A.b64, 44), g.alnum(24), g.b64url(48), g.alnum(40), g.b64bytes(32), g.alnum(28)];
    return [
      [v[0], `ACCESS_TOKEN=${v[0]}`],
      [v[1], `curl -H "Authorization: Token ${v[1]}" https://internal-api.acme.io/v1/reports`],
      [v[2], `client_secret: "${v[2]}"`],
      [v[3], `$ partner-cli push --token=${v[3]} ./catalog.csv`],
      [v[4], `        - name: INTERNAL_SERVICE_TOKEN\n          value: "${v[4]}"`],
      [v[5], `props.setProperty("apiSecret", "${v[5]}");`],
      [v[6], `JWT_SECRET=${v[6]}`],
      [v[7], `{"name":"http_request","arguments":"{\\"url\\":\\"https://api.partner.io/v2/orders?api_key=${v[7]}\\u0026page=2\\"}"}`],
    ];
  });
kind("generic", "password-assignment",
  "generic: assignment position (human-chosen passwords assigned to password fields)",
  "memorable, non-random passwords as values of password fields in env files, YAML, properties, CLI flags, JSON",
  (g) => {
    const p = Array.from({ length: 9 }, () => g.password());
    const amp = `${g.cap(g.word())}&${g.cap(g.word())}<${g.int(10, 99)}`;
    return [
      [p[0], `DB_PASSWORD=${p[0]}`],
      [p[1], `spring.datasource.password=${p[1]}`],
      [p[2], `  admin:\n    username: admin\n    password: ${p[2]}`],
      [p[3], `mysqldump -u backup --password='${p[3]}' --single-transaction shop > shop.sql`],
      [p[4], `{"username": "svc-reporting", "password": "${p[4]}"}`],
      [p[5], `services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_PASSWORD: ${p[5]}`],
      [p[6], `SMTP_PASS="${p[6]}"`],
      [p[7], `keystore.password=${p[7]}\nkey.alias=release`],
      [p[8], `ansible-playbook site.yml -e "ansible_become_password=${p[8]}"`],
      [amp.replace(/&/g, "\\u0026").replace(/</g, "\\u003c"), `{"tool":"write_file","input":{"path":".env","content":${goJson(`ADMIN_PASSWORD=${amp}\n`)}}}`],
    ];
  });
kind("generic", "basic-auth-header",
  "RFC 7617, The 'Basic' HTTP Authentication Scheme (base64 of user:password) — https://www.rfc-editor.org/rfc/rfc7617",
  "Authorization: Basic base64(user:password); secret = the base64",
  (g) => {
    const a = b64(`deploy:${g.randomPassword(18)}`), b = b64(`api:${g.alnum(32)}`);
    return [
      [a, `> GET /v1/builds HTTP/1.1\n> Host: ci.internal.acme.io\n> Authorization: Basic ${a}\n> User-Agent: curl/8.7.1`],
      [b, `headers = {"Authorization": "Basic ${b}", "Accept": "application/json"}`],
    ];
  });
kind("generic", "url-userinfo-password",
  "RFC 3986 §3.2.1 (userinfo in URLs); git credential store / pip index-url / .netrc conventions",
  "https://user:password@host/...; secret = the password",
  (g) => {
    const [a, b, c, d] = [encodeURIComponent(g.randomPassword(16)), g.alnum(24), encodeURIComponent(g.password()), g.randomPassword(20)];
    return [
      [a, `https://jenkins:${a}@git.acme.io\nhttps://oauth2:${g.b64url(20)}@gitlab.acme.io`],
      [b, `[global]\nindex-url = https://pypi-reader:${b}@pkgs.acme.io/simple/`],
      [c, `ftp://backup:${c}@files.acme.io/nightly/`],
      [d, `machine nexus.acme.io\nlogin ci-bot\npassword ${d}`],
    ];
  });
kind("generic", "private-key-block",
  "RFC 7468 (PEM textual encoding) and OpenSSH PROTOCOL.key — RSA/EC/OpenSSH private key blocks; secret = a body line",
  "-----BEGIN … PRIVATE KEY----- blocks; secret = one 64/70-char body line",
  (g) => {
    const rsa = g.pemBody(1180, "MIIEpAIBAAKCAQEA"), ec = g.pemBody(110, "MHcCAQEEI"), ssh = Buffer.from(g.bytes(400)).toString("base64").match(/.{1,70}/g);
    return [
      [rsa[6], `-----BEGIN RSA PRIVATE KEY-----\n${rsa.join("\n")}\n-----END RSA PRIVATE KEY-----`],
      [ec[1], `      tls.key: |\n        -----BEGIN EC PRIVATE KEY-----\n        ${ec.join("\n        ")}\n        -----END EC PRIVATE KEY-----`],
      [ssh[2], `$ cat ~/.ssh/id_ed25519\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n${ssh.join("\n")}\n-----END OPENSSH PRIVATE KEY-----`],
    ];
  });
kind("generic", "kubeconfig-token",
  "Kubernetes Docs, Organizing cluster access using kubeconfig files (users[].user.token) — https://kubernetes.io/docs/concepts/configuration/organize-cluster-access-kubeconfig/",
  "service-account JWT or opaque bearer token under user.token; secret = the token",
  (g) => {
    const a = g.jwt({ iss: "kubernetes/serviceaccount", "kubernetes.io/serviceaccount/namespace": "ci", "kubernetes.io/serviceaccount/service-account.name": "deployer", sub: "system:serviceaccount:ci:deployer" }, 342, "RS256");
    const b = `${g.lowernum(6)}.${g.lowernum(16)}`;
    return [
      [a, `users:\n- name: deployer\n  user:\n    token: ${a}`],
      [b, `kubeadm join 10.0.0.10:6443 --token ${b} --discovery-token-ca-cert-hash sha256:${g.hex(64)}`],
    ];
  });

// ---- database connection strings (the password is the secret) -------------------------------------------
kind("database-url", "conn-postgres",
  "PostgreSQL Docs, Connection URIs and keyword/value strings (libpq §34.1.1) — https://www.postgresql.org/docs/current/libpq-connect.html#LIBPQ-CONNSTRING",
  "postgres[ql]://user:password@host/db; host=… password=…",
  (g) => {
    const [a, b, c] = [encodeURIComponent(g.randomPassword(24)), g.password(), urlenc(g.str(A.alnum + "@/:", 18)).replace(/@/g, "%40").replace(/:/g, "%3A")];
    return [
      [a, `DATABASE_URL=postgres://app_user:${a}@db.internal:5432/app?sslmode=require`],
      [b, `psql "host=10.0.3.12 port=5432 dbname=orders user=orders_rw password=${b} sslmode=verify-full"`],
      [c, `engine = create_engine("postgresql+psycopg://etl:${c}@warehouse.acme.io:5432/dwh")`],
    ];
  });
kind("database-url", "conn-mysql",
  "MySQL Docs, Connecting using URI-like strings; Connector/J connection URL (user=, password=) — https://dev.mysql.com/doc/refman/8.0/en/connecting-using-uri-or-key-value-pairs.html",
  "mysql://user:password@host/db; mysql -p'…'; jdbc:mysql://…?password=",
  (g) => {
    const [a, b, c] = [encodeURIComponent(g.randomPassword(20)), g.password(), g.alnum(22)];
    return [
      [a, `MYSQL_URL=mysql://root:${a}@127.0.0.1:3306/shop`],
      [b, `mysql -h db-replica.internal -u admin -p'${b}' shop -e 'SHOW PROCESSLIST'`],
      [c, `spring.datasource.url=jdbc:mysql://db:3306/shop?user=shop&password=${c}&useSSL=true`],
    ];
  });
kind("database-url", "conn-mongodb",
  "MongoDB Docs, Connection strings (mongodb+srv://user:pass@cluster/…) — https://www.mongodb.com/docs/manual/reference/connection-string/",
  "mongodb[+srv]://user:password@hosts/db?…",
  (g) => {
    const [a, b] = [g.alnum(16), encodeURIComponent(g.password())];
    return [
      [a, `MONGODB_URI=mongodb+srv://svc-api:${a}@cluster0.ab1cd.mongodb.net/prod?retryWrites=true&w=majority&appName=api`],
      [b, `mongosh "mongodb://admin:${b}@mongo-0.mongo:27017,mongo-1.mongo:27017/admin?replicaSet=rs0"`],
    ];
  });
kind("database-url", "conn-redis",
  "Redis Docs, Connection URLs (redis://[user]:password@host; rediss:// for TLS) and redis-cli -a — https://redis.io/docs/latest/develop/clients/",
  "redis[s]://[user]:password@host:port/db; redis-cli -a",
  (g) => {
    const [a, b, c] = [g.alnum(32), g.b64url(32), g.randomPassword(24)];
    return [
      [a, `REDIS_URL=redis://:${a}@cache.internal:6379/0`],
      [b, `const redis = new Redis("rediss://default:${b}@eu1-pet-panda-31337.upstash.io:6379");`],
      [c, `redis-cli -h redis-master.cache.svc -p 6379 -a '${c}' --no-auth-warning INFO replication`],
    ];
  });
kind("database-url", "conn-amqp",
  "RabbitMQ Docs, URI Specification (amqp[s]://user:pass@host:port/vhost) — https://www.rabbitmq.com/docs/uri-spec",
  "amqp[s]://user:password@host/vhost",
  (g) => {
    const [a, b] = [g.alnum(20), encodeURIComponent(g.password())];
    return [
      [a, `CELERY_BROKER_URL=amqps://worker:${a}@b-0f1e2d3c.mq.eu-west-1.amazonaws.com:5671/%2f`],
      [b, `spring:\n  rabbitmq:\n    addresses: amqp://orders:${b}@rabbit-1:5672/orders`],
    ];
  });
kind("database-url", "conn-mssql",
  "Microsoft JDBC Driver for SQL Server, Building the connection URL (jdbc:sqlserver://…;password=…); SqlClient connection strings (Password=) — https://learn.microsoft.com/sql/connect/jdbc/building-the-connection-url",
  "jdbc:sqlserver://…;user=…;password=…; ADO.NET Password=…; sqlserver://user:pass@host",
  (g) => {
    const [a, b, c] = [g.randomPassword(20).replace(/[;=]/g, "x"), g.password(), g.alnum(18)];
    return [
      [a, `jdbc:sqlserver://sql01.corp.acme.io:1433;databaseName=Billing;user=billing_app;password=${a};encrypt=true;trustServerCertificate=false`],
      [b, `"ConnectionStrings": { "Default": "Server=tcp:acme-sql.database.windows.net,1433;Initial Catalog=crm;User ID=crmadmin;Password=${b};Encrypt=True;" }`],
      [c, `SQLSERVER_DSN=sqlserver://sa:${c}@localhost:1433?database=master`],
    ];
  });
kind("database-url", "conn-oracle",
  "Oracle JDBC Developer's Guide, Thin-style service name syntax (jdbc:oracle:thin:user/password@//host:port/service); SQL*Plus connect strings — https://docs.oracle.com/en/database/oracle/oracle-database/19/jjdbc/",
  "user/password@//host:port/service",
  (g) => {
    const [a, b] = [g.alnum(16), g.password().replace(/@/g, "_")];
    return [
      [a, `jdbc:oracle:thin:scott/${a}@//db-host.acme.io:1521/ORCLPDB1`],
      [b, `sqlplus system/${b}@//oracle-xe:1521/XEPDB1 @migrate.sql`],
    ];
  });
kind("database-url", "conn-clickhouse",
  "ClickHouse Docs, clickhouse-client (--password) and HTTP interface / connection strings — https://clickhouse.com/docs/interfaces/cli",
  "clickhouse://user:password@host; --password …",
  (g) => {
    const [a, b] = [g.b64url(24), g.alnum(20)];
    return [
      [a, `CLICKHOUSE_URL=clickhouse://default:${a}@ch.internal:9000/analytics`],
      [b, `clickhouse-client --host abc123.eu-central-1.aws.clickhouse.cloud --secure --user default --password ${b} --query "SELECT count() FROM events"`],
    ];
  });
kind("database-url", "conn-snowflake",
  "Snowflake Docs, SQLAlchemy connection string (snowflake://user:password@account/db/schema?warehouse=…) and Python connector connect() — https://docs.snowflake.com/en/developer-guide/python-connector/sqlalchemy",
  "snowflake://user:password@account/…; password= in connect()",
  (g) => {
    const [a, b, c] = [encodeURIComponent(g.randomPassword(18)), g.password(), g.alnum(24)];
    return [
      [a, `SNOWFLAKE_URL=snowflake://etl_user:${a}@xy12345.eu-central-1/analytics/public?warehouse=ETL_WH&role=LOADER`],
      [b, `conn = snowflake.connector.connect(user="REPORTING", password="${b}", account="acme-xy12345", warehouse="BI_WH")`],
      [c, `SNOWSQL_PWD=${c} snowsql -a acme-xy12345 -u LOADER -f load.sql`],
    ];
  });
kind("database-url", "conn-cassandra",
  "Apache Cassandra, cqlsh (-u/-p) and DataStax driver PlainTextAuthProvider — https://cassandra.apache.org/doc/latest/cassandra/managing/tools/cqlsh.html",
  "cqlsh -p …; PlainTextAuthProvider(password=…); spring.cassandra.password",
  (g) => {
    const [a, b, c] = [g.password(), g.alnum(20), g.randomPassword(16)];
    return [
      [a, `cqlsh cassandra-0.cassandra.db.svc 9042 -u cassandra -p '${a}' -e "DESCRIBE KEYSPACES"`],
      [b, `auth_provider = PlainTextAuthProvider(username="app", password="${b}")`],
      [c, `spring.cassandra.username=app\nspring.cassandra.password=${c}`],
    ];
  });

// ---------------------------------------------------------------------------------------------
// Negatives: lines that must come back unchanged. As realistic as the positives and deliberately
// close to them (hashes, ids, public keys, placeholders, references to secrets that hold none).

const N = [];
const neg = (name, why, lines) => N.push({ kind: name, why, lines });

neg("git-sha", "commit hashes in logs, URLs and tool output are public identifiers", (g) => [
  `commit ${g.hex(40)}\nAuthor: Jane Doe <jane@acme.io>\nDate:   Tue Mar 3 14:22:10 2026 +0100\n\n    Fix pagination in orders list`,
  `${g.hex(7)} (HEAD -> main, origin/main) Bump actions/checkout from 4 to 5\n${g.hex(7)} Merge pull request #4412 from acme/fix-retry\n${g.hex(7)} retry: cap backoff at 30s`,
  `https://github.com/acme/web/commit/${g.hex(40)}`,
  `$ git rev-parse HEAD\n${g.hex(40)}`,
  `Updating ${g.hex(7)}..${g.hex(7)}\nFast-forward\n src/orders.ts | 12 ++++++------\n 1 file changed, 6 insertions(+), 6 deletions(-)`,
  `      - uses: actions/checkout@${g.hex(40)} # v4.2.2`,
  `[main ${g.hex(7)}] Rotate signing key reference in deploy config\n 2 files changed, 3 insertions(+), 3 deletions(-)`,
]);
neg("uuid", "UUIDs as record, request and resource ids", (g) => [
  `{"id": "${g.uuid()}", "status": "shipped", "items": 3}`,
  `2026-04-02T10:11:12.123Z INFO request_id=${g.uuid()} method=GET path=/api/orders status=200 duration_ms=41`,
  `metadata:\n  name: web\n  namespace: prod\n  uid: ${g.uuid()}\n  resourceVersion: "48213377"`,
  `X-Request-Id: ${g.uuid()}`,
  `terraform.tfstate: "lineage": "${g.uuid()}", "serial": 412`,
  `az vm show --ids /subscriptions/${g.uuid()}/resourceGroups/rg-web/providers/Microsoft.Compute/virtualMachines/web-01`,
]);
neg("lockfile-integrity", "package-lock / yarn / pnpm integrity hashes are public checksums", (g) => [
  `      "resolved": "https://registry.npmjs.org/lodash/-/lodash-4.17.21.tgz",\n      "integrity": "sha512-${g.b64bytes(64)}"`,
  `lodash@^4.17.21:\n  version "4.17.21"\n  resolved "https://registry.yarnpkg.com/lodash/-/lodash-4.17.21.tgz#${g.hex(40)}"\n  integrity sha512-${g.b64bytes(64)}`,
  `  /zod@3.23.8:\n    resolution: {integrity: sha512-${g.b64bytes(64)}}\n    dev: false`,
  `<script src="https://cdn.jsdelivr.net/npm/bootstrap@5.3.3/dist/js/bootstrap.bundle.min.js" integrity="sha384-${g.b64bytes(48)}" crossorigin="anonymous"></script>`,
]);
neg("go-sum", "go.sum h1: hashes are public module checksums", (g) => [
  `github.com/google/uuid v1.6.0 h1:${g.b64bytes(32)}\ngithub.com/google/uuid v1.6.0/go.mod h1:${g.b64bytes(32)}`,
  `golang.org/x/net v0.33.0 h1:${g.b64bytes(32)}`,
  `verifying github.com/spf13/cobra@v1.8.1: checksum mismatch\n\tdownloaded: h1:${g.b64bytes(32)}\n\tgo.sum:     h1:${g.b64bytes(32)}`,
]);
neg("cargo-lock", "Cargo.lock / poetry.lock / pip hashes are public checksums", (g) => [
  `[[package]]\nname = "serde"\nversion = "1.0.217"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\nchecksum = "${g.hex(64)}"`,
  `requests==2.32.3 \\\n    --hash=sha256:${g.hex(64)} \\\n    --hash=sha256:${g.hex(64)}`,
  `files = [\n    {file = "httpx-0.28.1-py3-none-any.whl", hash = "sha256:${g.hex(64)}"},\n]`,
  `${g.hex(64)}  node-v22.14.0-linux-x64.tar.xz`,
]);
neg("docker-digest", "image digests and container ids are public identifiers", (g) => [
  `FROM node:22-alpine@sha256:${g.hex(64)}`,
  `22-alpine: Pulling from library/node\nDigest: sha256:${g.hex(64)}\nStatus: Downloaded newer image for node:22-alpine`,
  `CONTAINER ID   IMAGE          COMMAND                  CREATED        STATUS        NAMES\n${g.hex(12)}   redis:7.4      "docker-entrypoint.s…"   2 hours ago    Up 2 hours    cache`,
  `        image: ghcr.io/acme/api@sha256:${g.hex(64)}`,
  `oid sha256:${g.hex(64)}\nsize 5242880`,
]);
neg("data-uri", "inline images are content, not credentials", (g) => [
  `<img alt="logo" src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAA${g.b64bytes(180)}">`,
  `.icon-check { background-image: url("data:image/svg+xml;base64,${b64('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><path d="M2 8l4 4 8-8"/></svg>')}"); }`,
  `{"type": "image", "source": {"type": "base64", "media_type": "image/jpeg", "data": "/9j/4AAQSkZJRgABAQAAAQABAAD/${g.b64bytes(240)}"}}`,
]);
neg("path-url", "paths and URLs without credentials", (g) => [
  `Error: ENOENT: no such file or directory, open '/home/runner/work/web/web/packages/api/src/config/production.json'`,
  `https://www.acme.io/search?q=wireless+headphones&page=2&sort=price_asc&utm_source=newsletter&utm_campaign=spring`,
  `s3://acme-datalake-prod/events/year=2026/month=04/day=02/part-00017-${g.uuid()}.c000.snappy.parquet`,
  `  File "/usr/lib/python3.12/site-packages/requests/adapters.py", line 700, in send\n    raise ConnectionError(e, request=request)`,
  `https://acme.atlassian.net/browse/PAY-1423?focusedCommentId=58812&page=com.atlassian.jira.plugin.system.issuetabpanels:comment-tabpanel`,
  `git clone https://github.com/acme/web.git && cd web && pnpm install --frozen-lockfile`,
]);
neg("version", "semantic versions and build metadata", (g) => [
  `"dependencies": { "react": "^19.1.0", "next": "15.3.2", "@tanstack/react-query": "5.74.4" }`,
  `Successfully installed anyio-4.9.0 httpx-0.28.1 pydantic-2.11.3 pydantic-core-2.33.1`,
  `v2.14.0-rc.1+build.${g.hex(7)}`,
]);
neg("public-key", "public keys and certificates are meant to be shared", (g) => [
  `ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ${g.b64bytes(381)} jane@laptop`,
  `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${g.b64bytes(32).slice(0, 43)} deploy@ci`,
  `-----BEGIN PUBLIC KEY-----\n${g.pemBody(258, "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA").join("\n")}IDAQAB\n-----END PUBLIC KEY-----`,
  `github.com ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBB${g.b64bytes(64)}`,
  `{"keys":[{"kty":"RSA","use":"sig","kid":"${g.b64url(27)}","alg":"RS256","n":"${g.b64url(342)}","e":"AQAB"}]}`,
  `    certificate-authority-data: ${b64(`-----BEGIN CERTIFICATE-----\n${g.pemBody(700, "MIIC/jCCAeagAwIBAgIB").join("\n")}\n-----END CERTIFICATE-----\n`)}`,
  `-----BEGIN CERTIFICATE-----\n${g.pemBody(700, "MIIDdzCCAl+gAwIBAgIU").join("\n")}\n-----END CERTIFICATE-----`,
]);
neg("publishable-key", "keys documented as safe to publish (Stripe pk_, Mapbox pk.)", (g) => [
  `const stripe = Stripe('pk_live_${g.alnum(99)}');`,
  `NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY=pk_test_${g.alnum(99)}`,
  `mapboxgl.accessToken = 'pk.${b64url(JSON.stringify({ u: "acme-maps", a: g.lowernum(25) }))}.${g.b64url(22)}';`,
]);
neg("placeholder", "placeholders and documentation values, not secrets", (g) => [
  `OPENAI_API_KEY=YOUR_API_KEY`,
  `curl -H "Authorization: Bearer <token>" https://api.acme.io/v1/me`,
  `export GITHUB_TOKEN=\${GITHUB_TOKEN}`,
  `api_key: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx`,
  `# Set ANTHROPIC_API_KEY=sk-ant-... in your shell before running`,
  `STRIPE_SECRET_KEY=sk_live_...`,
  `password: <your-password-here>`,
  `DATABASE_URL=postgres://USER:PASSWORD@HOST:5432/DBNAME`,
  `token = "REPLACE_ME"`,
  `"apiKey": "{{ .Values.apiKey }}"`,
  `AWS_SECRET_ACCESS_KEY=<secret-access-key>`,
  `Authorization: Basic <base64(username:password)>`,
]);
neg("variable-reference", "references to where a secret lives, not the secret", (g) => [
  `        env:\n          NPM_TOKEN: \${{ secrets.NPM_TOKEN }}`,
  `          env:\n            - name: DB_PASSWORD\n              valueFrom:\n                secretKeyRef:\n                  name: db-credentials\n                  key: password`,
  `password: \${DB_PASSWORD}`,
  `api_key = "%API_KEY%"`,
  `TOKEN=$(cat /run/secrets/registry_token)`,
  `token = data.vault_generic_secret.ci.data["token"]`,
  `REDIS_URL=redis://:\${REDIS_PASSWORD}@cache:6379/0`,
  `aws_secret_access_key = {{ op://Infra/aws-prod/secret-access-key }}`,
]);
neg("env-read-code", "code that reads a secret from the environment holds none", (g) => [
  `const apiKey = process.env.OPENAI_API_KEY;\nif (!apiKey) throw new Error("OPENAI_API_KEY is not set");`,
  `api_key = os.getenv("ANTHROPIC_API_KEY")`,
  `token := os.Getenv("GITHUB_TOKEN")\nif token == "" {\n\tlog.Fatal("GITHUB_TOKEN missing")\n}`,
  `String password = System.getenv("DB_PASSWORD");`,
  `stripe.api_key = settings.STRIPE_SECRET_KEY`,
  `let secret = std::env::var("JWT_SECRET").expect("JWT_SECRET must be set");`,
]);
neg("provider-id", "ids that providers return and log: not credentials", (g) => [
  `{"id": "chatcmpl-${g.alnum(29)}", "object": "chat.completion", "created": 1767225600, "model": "gpt-4o-2024-08-06"}`,
  `{"type": "function", "id": "call_${g.alnum(24)}", "function": {"name": "get_weather", "arguments": "{\\"city\\":\\"Oslo\\"}"}}`,
  `{"id": "msg_01${g.alnum(22)}", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5", "stop_reason": "tool_use"}`,
  `{"type": "tool_use", "id": "toolu_01${g.alnum(22)}", "name": "bash", "input": {"command": "ls -la"}}`,
  `Customer cus_${g.alnum(14)} paid invoice in_${g.alnum(24)} (payment_intent pi_${g.alnum(24)})`,
  `evt_${g.alnum(24)} checkout.session.completed -> 200 OK`,
  `x-amzn-RequestId: ${g.uuid()}\nx-amz-id-2: ${g.b64bytes(54)}`,
  `ETag: "${g.hex(32)}"`,
  `traceparent: 00-${g.hex(32)}-${g.hex(16)}-01`,
  `{"trace_id": "${g.hex(32)}", "span_id": "${g.hex(16)}", "name": "GET /api/orders", "duration_ms": 18}`,
  `Sentry event ${g.hex(32)} captured for issue ACME-WEB-3K1`,
  `arn:aws:iam::${g.digit(12)}:role/github-actions-deploy`,
  `Launched instance i-0${g.hex(16)} from ami-0${g.hex(16)} in subnet-0${g.hex(16)}`,
  `req_${g.alnum(24)}: rate limited, retrying in 2s`,
]);
neg("generated-name", "hash-suffixed names from schedulers and bundlers", (g) => [
  `NAME                          READY   STATUS    RESTARTS   AGE\nweb-${g.lowernum(10)}-${g.lowernum(5)}      1/1     Running   0          3d\nworker-${g.lowernum(9)}-${g.lowernum(5)}   1/1     Running   2          3d`,
  `<div class="css-${g.lowernum(7)} e1${g.lowernum(5)}0"><span class="_${g.b64url(5)} _${g.b64url(5)}">Checkout</span></div>`,
  `dist/assets/index-${g.b64url(8)}.js   142.31 kB │ gzip: 45.82 kB\ndist/assets/vendor-${g.b64url(8)}.js   311.04 kB │ gzip: 98.17 kB`,
  `<script src="/static/js/main.${g.hex(8)}.js"></script><link href="/static/css/main.${g.hex(8)}.css" rel="stylesheet">`,
  `/nix/store/${g.base32lower(32)}-openssl-3.0.13/lib/libssl.so.3`,
  `replicaset.apps/api-${g.lowernum(10)} created`,
]);
neg("csrf-nonce", "per-session CSRF tokens and CSP nonces in served HTML", (g) => [
  `<input type="hidden" name="csrfmiddlewaretoken" value="${g.alnum(64)}">`,
  `<meta name="csrf-token" content="${g.b64url(86)}">`,
  `Content-Security-Policy: script-src 'self' 'nonce-${g.b64bytes(16)}'; object-src 'none'`,
]);
neg("masked-or-empty", "password fields with no secret in them", (g) => [
  `password: ********`,
  `{"username": "admin", "password": ""}`,
  `DB_PASSWORD=`,
  `  password: null`,
  `Password: [hidden]`,
  `mysql -u root -p\nEnter password:`,
  `SMTP_PASSWORD=•••••••••••••`,
  `"client_secret": "REDACTED"`,
]);
neg("commit-message", "commit messages and prose about secrets", (g) => [
  `Rotate the Stripe secret key after the March incident; the old key is revoked`,
  `fix(ci): read GITHUB_TOKEN from the environment instead of hardcoding it`,
  `docs: explain how to create a Slack bot token and where to store it`,
  `The API key must be passed in the X-Api-Key header; tokens expire after 90 days.`,
  `chore: remove AWS_SECRET_ACCESS_KEY from .env.example (use aws sso login)`,
]);
neg("hash-output", "digests printed by tools", (g) => [
  `$ sha256sum release.tar.gz\n${g.hex(64)}  release.tar.gz`,
  `$ md5sum backup.sql\n${g.hex(32)}  backup.sql`,
  `Fingerprint: SHA256:${g.b64bytes(32).replace(/=+$/, "")}`,
  `The key fingerprint is:\nSHA256:${g.b64bytes(32).replace(/=+$/, "")} jane@laptop`,
  `sha1 ${g.hex(40)}  dist/app.js`,
]);


// How much of each kind's layout was read in its cited page while writing this corpus:
// "format" = prefix/length/alphabet read there; "usage" = the credential and where it goes read
// there, layout from knowledge; anything else = cited from knowledge, page not re-read.
const READ = {
  format: ["aws-access-key-id", "aws-secret-access-key", "github-classic-pat", "github-fine-grained-pat", "github-app-oauth-token", "gitlab-token",
    "stripe-secret-key", "stripe-restricted-key", "digitalocean-token", "azure-storage-account-key", "azure-devops-pat", "circleci-token",
    "dynatrace-token", "vault-token", "grafana-token", "shopify-token", "doppler-token", "datadog-app-key", "sentry-auth-token", "sentry-dsn", "pypi-token"],
  usage: ["slack-bot-user-token", "slack-app-token", "anthropic-key", "atlassian-api-token", "bitbucket-app-password", "entra-client-secret", "airtable-pat", "npm-token"],
};
const readOf = (k) => (READ.format.includes(k) ? "format" : READ.usage.includes(k) ? "usage" : "—");

// ---------------------------------------------------------------------------------------------
// Writing

/** TSV cell escaping: backslash, newline, carriage return and tab become \\ \n \r \t. */
export const escapeCell = (s) => s.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/\r/g, "\\r").replace(/\t/g, "\\t");

function shuffled(xs, salt) {
  return [...xs].sort((a, b) => fnv1a(`${SEED}:${salt}:${a}`) - fnv1a(`${SEED}:${salt}:${b}`) || (a < b ? -1 : 1));
}

/** Whole kinds to a split: within each family, kinds alternate dev/check in a seeded order. */
function splitKinds(kinds) {
  const split = new Map();
  const families = [...new Set(kinds.map((k) => k.family))];
  let flip = 0;
  for (const f of families) {
    for (const name of shuffled(kinds.filter((k) => k.family === f).map((k) => k.kind), f)) split.set(name, flip++ % 2 ? "check" : "dev");
  }
  return split;
}

export function generate() {
  const split = splitKinds(K);
  const positives = [];
  for (const k of K) {
    const rows = k.rows(makeGen(k.kind));
    for (const [secret, line] of rows) {
      if (typeof secret !== "string" || secret.length < 8) throw new Error(`${k.kind}: secret too short to check: ${secret}`);
      if (!line.includes(secret)) throw new Error(`${k.kind}: secret not in its line: ${secret}`);
      positives.push({ kind: k.kind, family: k.family, split: split.get(k.kind), secret, line });
    }
  }
  const negatives = [];
  let n = 0;
  for (const k of N) {
    for (const line of k.lines(makeGen(`negative:${k.kind}`))) negatives.push({ kind: k.kind, split: n++ % 2 ? "check" : "dev", line });
  }
  return { positives, negatives, split };
}

function provenance({ positives, negatives, split }) {
  const count = (kind) => positives.filter((p) => p.kind === kind).length;
  const esc = (s) => s.replace(/\|/g, "\\|");
  const rows = K.map((k) => `| \`${k.kind}\` | ${k.family} | ${split.get(k.kind)} | ${count(k.kind)} | ${esc(k.format)} | ${esc(k.doc)} | ${readOf(k.kind)} |`);
  const negRows = N.map((k) => {
    const ls = negatives.filter((x) => x.kind === k.kind);
    return `| \`${k.kind}\` | ${ls.filter((x) => x.split === "dev").length} | ${ls.filter((x) => x.split === "check").length} | ${esc(k.why)} |`;
  });
  const kindsIn = (s) => K.filter((k) => split.get(k.kind) === s).length;
  return `# Secret-redaction holdout corpus: provenance

A **blind** corpus for measuring how secret redaction generalises to vendors and layouts it was not
tuned on. Written for this project (project licence); every secret value is **synthetic**, drawn from a
seeded PRNG by \`tools/gen-holdout.mjs\` (seed ${SEED}, one stream per kind, so adding a kind changes no
other value). No value was copied from a documentation page, a secret scanner's rules or tests, or any
real credential; checksummed formats (GitHub, npm…) carry random, invalid checksums.

Regenerate with \`node tools/gen-holdout.mjs\`; measure with \`npx tsx bench/holdout.ts\`.

## How it was written (the blindness rules)

- Written without reading the redaction source (\`src/redact/\`), its tests, its fixtures
  (\`test/fixtures/secrets/\`), its bench, or the redaction notes; formats were taken from vendors'
  documentation (searched for this corpus, cited below) and from knowledge of how credentials appear in
  real files. The \`read\` column says how much of each layout was read in the cited page while writing:
  \`format\` (prefix, length, alphabet read there), \`usage\` (the credential and where it goes read there,
  layout from knowledge), \`—\` (cited from knowledge; the page was not re-read).
- **Splits hold whole kinds.** Within each family, kinds alternate \`dev\`/\`check\` in a seeded order:
  ${kindsIn("dev")} kinds are \`dev\` (for development), ${kindsIn("check")} are \`check\` (never look at their lines while
  changing the redactor; report only their aggregate). Negative lines alternate \`dev\`/\`check\`.
- One correction after the first measurement, made by rule across the corpus and not line by line:
  passwords inside URLs are now percent-encoded (\`#\`, \`^\`, \`%\`, \`@\` had made some URLs invalid), and in
  a legacy \`public:secret\` Sentry DSN the secret half, not the public one, is \`secret\`.

## Files

- \`positives.tsv\`: columns \`kind\`, \`split\`, \`secret\`, \`line\`; ${positives.length} lines, ${K.length} kinds. \`secret\` is the exact
  text that must be gone from \`redact(line)\`. Where a line carries a public part (a user name, a host, a
  key id, a token's public prefix segment), only the secret part is \`secret\`; for tokens built of
  segments (\`prefix.id.secret\`), \`secret\` is the last high-entropy segment, so a redaction that stops at
  the first separator counts as a miss.
- \`negatives.tsv\`: columns \`kind\`, \`split\`, \`line\`; ${negatives.length} lines that must come back unchanged.
- **Escapes in every cell:** \`\\\\\` is a backslash, \`\\n\` a newline, \`\\r\` a carriage return, \`\\t\` a tab.
  Decode in one left-to-right pass (so a JSON \`\\u0026\` inside a line is stored \`\\\\u0026\` and decodes
  back to the six characters \`\\u0026\`).

## Positive kinds

| kind | family | split | lines | format | source | read |
| --- | --- | --- | --- | --- | --- | --- |
${rows.join("\n")}

## Negative kinds

| kind | dev lines | check lines | why it must be left alone |
| --- | --- | --- | --- |
${negRows.join("\n")}

Left out on purpose: browser API keys that some teams treat as public and others as secret (Google Maps
/ Firebase web keys, Algolia search-only keys, Supabase anon keys), and \`0x\`-prefixed 64-hex values (a
transaction hash and a private key look alike).
`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const out = generate();
  mkdirSync(OUT, { recursive: true });
  writeFileSync(`${OUT}positives.tsv`, ["kind\tsplit\tsecret\tline", ...out.positives.map((p) => [p.kind, p.split, p.secret, p.line].map(escapeCell).join("\t"))].join("\n") + "\n");
  writeFileSync(`${OUT}negatives.tsv`, ["kind\tsplit\tline", ...out.negatives.map((p) => [p.kind, p.split, p.line].map(escapeCell).join("\t"))].join("\n") + "\n");
  writeFileSync(`${OUT}PROVENANCE.md`, provenance(out));
  const by = (s) => out.positives.filter((p) => p.split === s).length;
  console.log(`positives: ${out.positives.length} lines (${by("dev")} dev, ${by("check")} check), ${K.length} kinds; negatives: ${out.negatives.length} lines`);
}
