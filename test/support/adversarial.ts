// Adversarial material for redaction's linear-time checks: prefixes of an example of every shape in
// the catalogue (made up in each vendor's documented format), and the characters their repeats consume.
// Shared by test/redact.test.ts (work growth), test/redact-equivalence.test.ts (long escaped texts) and bench/redact.ts (the slowest input).

/** One made-up example of each shape, whole: its prefixes are what a backtracking pattern restarts on. */
export const SHAPE_EXAMPLES = [
  "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJlMTIz",
  "AKIAZ7Q3R4M5N6P7W2XY",
  "AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q",
  "ghp_R2d9Xk3mQ7vB1nZ8wL4tY6uH0cJ5fG2aP9sE",
  "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzAB",
  "glpat-Zx81fQ2mN7pLk3vT9wRy",
  "xoxb-2345678901-3456789012-Zx81fQ2mN7pLk3vT9wRy4uHs",
  "sk-ant-api03-Zx81fQ2mN7pLk3vT9wRy4uHs",
  "sk-proj-AbCdEfGh1234567890T3BlbkFJxYz0987654321",
  "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
  "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",
  "SK0123456789abcdef0123456789abcdef",
  "npm_Zx81fQ2mN7pLk3vT9wRy4uHsQ2mN7pLk3vT9",
  "hvs.CAESIJlWh5Zx81fQ2mN7pLk3vT9wRy",
  "0123456789abcdef0123456789abcdef-us21",
  "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw",
  "Xy78Q~a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7",
  "MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ.ZnCjm1XVW7vRze4b7Cq4se7kKWs",
  "https://hooks.slack.com/services/T024BE7LD/B01ABCDEF12/aB3dE5fG7hI9jK1lM3nO5pQ7",
  "https://discord.com/api/webhooks/123456789012345678/Abc-DEF_ghi123JKL456mno789",
  "Authorization: Basic dXNlcjpwYXNzd29yZDEyMw==",
  "Bearer Zx81fQ2mN7pLk3vT9wRy",
  "curl -u admin:Hunter2Pass9 https://x",
  "postgres://user:Hunter2Pass9@db.example.com:5432/app",
  "mongodb+srv://Zx81fQ2mN7pLk3vT9wRy4uHs@cluster0.example.net",
  "//registry.npmjs.org/:_authToken=Zx81fQ2mN7pLk3vT9wRy",
  "https://x.test/?token=Zx81fQ2mN7pLk3vT9&password=Hunter2",
  "password=Hunter2Pass9",
  'getenv("API_TOKEN", "Zx81fQ2mN7pLk3vT9")',
  "--password Hunter2Pass9",
  "key=Zx81fQ2mN7pLk3vT9wRy4",
  "<password>Hunter2Pass9</password>",
  "apiVersion: v1\nkind: Secret\ndata:\n  a: YWRtaW4xMjM=",
  "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA1c3Rh\nbW9yZSBrZXk=\n-----END RSA PRIVATE KEY-----",
  "api_key: \\u0041Zx81fQ2mN7pLk3vT9wRy",
  "aws configure set aws_secret_access_key Hk4Lz9Qw2Ex7Rt1Yu6Io3Pa8Sd5Fg0Hj4Kl7Zx2C",
  "mysql -uroot -pHunter2Pass9",
  "sshpass -p 'Hunter2Pass9' ssh",
  "docker login -u ci -p Hunter2Pass9",
  "redis-cli -a Hunter2Pass9",
  "smbclient -U admin%Hunter2Pass9",
  "ssh-keygen -N Hunter2Pass9",
  "Private-Lines: 2\nMIIEpAIBAAKCAQEA1c3Rh\nbW9yZSBrZXk=",
  "the password is Hunter2Pass9",
  "A3-ABCDEF-GHIJKLMNOPQ-RSTUV-WXYZ0-12345",
  "1234567890123456|Zx81fQ2mN7pLk3vT9wRy",
  'Client("SKc01b314d5669037ee9b45290acf5c015", "1jg6lVuzes8dvnUm9bbT3dNcjgR6dS8g")',
  'auth=("rzp_live_YOBO3lwmy6QXaS", "MzUGejmGYp4DWyPrWpYBuZIf")',
  'HTTPBasicAuth("svc", "Zx81fQ2mN7pLk3vT")',
  "echo -n 'id:Zx81fQ2mN7pLk3vT' | base64",
  "printf ':%s' 'Zx81fQ2mN7pLk3vT' | base64",
  "docker login -u 'ns/oracleidentitycloudservice/a@b.c' -p '{8fQz)Lm2<Wv9}T>k'",
  "mysql -p'Tulip1987*'",
  "DB_PASSWORD='Rk4+mQ;(Zx9-Lp2'",
  '{"client_secret": "Hz7,Qm2vX9;pL4wR"}',
  "md-k3Fq_Zw8-Lp2xVn_7RtY4c",
  '"trace_id": "O432naGz0WgPznTqcuBNZohKkq1ANmtk"',
  '{"kty":"EC","x":"3S4B3xCc-9p-D9GzkOfWTzDLqujVw-wlEzsWJE0KmkN"}',
  "postgres://USER:PASSWORD@HOST:5432/DB",
  "server.login('a@b.org', 'Sm7tP!pa55w0rd')",
  "mongosh -u admin -p 'Mg7vX2pL9wR4'",
  "https://api.telegram.org/bot7041986352:AAYlwt0eMweIAN7K2rzSyH7r5FOqu24L5tn/getMe",
  "https://chat.example.org/hooks/ittte6dnm5iiicsiwk1i1co8b3",
  "https://hooks.zapier.com/hooks/catch/4417029/bgq2ehj/",
  "https://hook.eu2.make.com/b1yi6s9q4ts9xfwm39uaj2qvsc0p6ju1",
  "https://maker.ifttt.com/trigger/door_open/json/with/key/i_S87u-udQwTjQ6QZfIEb4",
  'curl -u "AmuaNEZhaEkEHfF7fx9yjcA-HrYf7EW1k4:EWO8HnyFoVRpSchCkrV8VZ"',
  'app.config["SECRET_KEY"] = "e3c1384d6ab9023a7fae1052ce6566a4"',
  "settings[:secret_token] = b397cebe13bc3e13746bde0c22d5a4ce",
  "SECRET_KEY_BASE=0f239a889adfb18e04ed7775d444fc05",
  "DB_PASSWORD=coral-thistle-indigo-31",
  "cqlsh -u ops -p 'Harbor&Lantern!'",
  "hdbsql -u SYSTEM -p Hn4vQ8xL2wRt",
  '{"db_url": {"sensitive": true, "type": "string", "value": "Hq8vK2mZp9Rt4Wx7"}}',
  '{"api_key": {"value": "Hq8vK2mZp9Rt4Wx7"}}',
  "client_secret: >-\n  Hq8vK2mZp9Rt4Wx7",
  // round 17's: a name where a token stands, values in quotes after a space, Markdown's emphasis, fields of their own
  "Bearer DB_PASSWORD='Hq8vK2mZp9Rt4Wx7'",
  "the password is `Sp4ce d0g!`",
  "**Password:** Hq8vK2mZp9Rt4Wx7",
  '- name: DB_PASSWORD\n  value: "Hq8vK2mZp9Rt4Wx7"',
  "const apiKey: string = 'Hq8vK2mZp9Rt4Wx7'",
  "redis://:p@ss/w0rd!@cache:6379/0",
  "Password for admin: Hq8vK2mZp9Rt4Wx7",
  "AWS secret access key: Hq8vK2mZp9Rt4Wx7",
  "| **DB_PASSWORD** | `Hq8vK2mZp9Rt4Wx7` |",
  "machine github.com login alice password Hq8vK2mZp9Rt4Wx7",
];

/** Characters repeats consume, and separators that end or restart a shape. */
const RUNS = ["a", "aB3", "Zz9", "0", "f", " ", '"', "'", "\\", "\\n", "\n", "\n  a: ", "-", "_", ".", "=", "/", "@", ":", "%41", "\\u0041", "~", "|"];

/** Each shape's example on one line, its first letter from the fourth on written as a JSON escape (`\u0061`). */
export const ESCAPED_EXAMPLES = SHAPE_EXAMPLES.map((e) => e.replace(/\n/g, " ").replace(/(?<=^.{3,}?)[A-Za-z]/, (c) => `\\u00${c.charCodeAt(0).toString(16)}`));

/** Every prefix worth repeating: the whole example, its first 1–6 characters, up to and after each separator. */
export function adversarialSeeds(): string[] {
  const seeds = new Set<string>(RUNS);
  for (const ex of SHAPE_EXAMPLES) {
    seeds.add(ex);
    for (let n = 1; n <= 6; n++) seeds.add(ex.slice(0, n));
    for (let i = 0; i < ex.length; i++) if (/[^A-Za-z\d]/.test(ex[i])) {
      seeds.add(ex.slice(0, i));
      seeds.add(ex.slice(0, i + 1));
      seeds.add(ex.slice(0, i + 2));
      seeds.add(ex[i] + ex.slice(i + 1, i + 4));
    }
  }
  seeds.delete("");
  return [...seeds];
}

/** `seed` repeated to exactly `chars` characters. */
export const repeatTo = (seed: string, chars: number) => seed.repeat(Math.ceil(chars / seed.length)).slice(0, chars);
