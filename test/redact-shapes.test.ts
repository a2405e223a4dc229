// The shapes of issue 26 item 3 as general rules, attack tests first: SQL that sets a password,
// Oracle's user/password, commands that store or take a secret positionally or on stdin, credentials
// passed by position in code, .pgpass lines, framework keys, OAuth codes, base64-wrapped credentials,
// a value printed bare after a command that names a secret, Terraform state, cookies, tokens split by
// escapes or zero-width spaces. Every value is made up here; none comes from a scanner's tests.
import { describe, expect, it } from "vitest";
import { redact } from "../src/index.js";
import { survivors } from "./support/survivors.js";

const hides = (_: string, text: string, secret: string) => expect(survivors(redact(text), secret, text), redact(text)).toEqual([]);
const keeps = (_: string, text: string) => expect(redact(text)).toBe(text);

const b64 = (s: string) => btoa(s);

describe("SQL that sets a password", () => {
  it.each([
    ["Oracle CREATE USER", "CREATE USER app_owner IDENTIFIED BY Winter2024pw QUOTA UNLIMITED ON users;", "Winter2024pw"],
    ["MySQL CREATE USER", "CREATE USER 'shop'@'%' IDENTIFIED BY 'lavender-fog';", "lavender-fog"],
    ["ALTER USER", "alter user system identified by \"Manager_77\";", "Manager_77"],
    ["SET PASSWORD FOR", "SET PASSWORD FOR 'root'@'localhost' = 'quietriver';", "quietriver"],
    ["SET PASSWORD FOR … = PASSWORD()", "SET PASSWORD FOR bob = PASSWORD('oldschool9');", "oldschool9"],
    ["Postgres WITH PASSWORD", "CREATE ROLE reporter WITH LOGIN PASSWORD 'mangotree';", "mangotree"],
    ["ALTER ROLE … PASSWORD", "ALTER ROLE app PASSWORD 'bluebird';", "bluebird"],
  ])("%s", hides);
  it.each([
    ["a bind variable", "ALTER USER app IDENTIFIED BY :new_password"],
    ["IDENTIFIED EXTERNALLY", "CREATE USER ops IDENTIFIED EXTERNALLY;"],
    ["a column named password", "SELECT id, password FROM users WHERE email = ?;"],
  ])("leaves %s alone", keeps);
});

describe("Oracle user/password on a command line", () => {
  it.each([
    ["sqlplus with an alias", "sqlplus scott/tigerlily@ORCLPDB1", "tigerlily"],
    ["sqlplus without one", "sqlplus -s hr/hrpass99", "hrpass99"],
    ["expdp", "expdp system/oracle123@XE schemas=HR directory=DATA_PUMP_DIR", "oracle123"],
    ["rman target", "rman target sys/change_on_install@prod", "change_on_install"],
    ["impdp userid=", "impdp userid=admin/Secr3tive@pdb1 full=y", "Secr3tive"],
  ])("%s", hides);
  it.each([
    ["sqlplus / as sysdba", "sqlplus / as sysdba"],
    ["sqlplus /nolog", "sqlplus /nolog"],
  ])("leaves %s alone", keeps);
});

describe("commands that store or take a secret positionally or on stdin", () => {
  it.each([
    ["gh secret set -b", 'gh secret set DEPLOY_KEY -b "orchard-lamp-5"', "orchard-lamp-5"],
    ["gh secret set --body", "gh secret set NPM --body meadowlark --repo o/r", "meadowlark"],
    ["echo | gh secret set", "echo 'pinecone-42' | gh secret set SENTRY_DSN", "pinecone-42"],
    ["az keyvault secret set --value", "az keyvault secret set --vault-name kv1 --name db --value 'glacier.Peak.8'", "glacier.Peak.8"],
    ["aws ssm put-parameter --value", "aws ssm put-parameter --name /app/db --type SecureString --value saltmarsh77 --overwrite", "saltmarsh77"],
    ["aws secretsmanager --secret-string", "aws secretsmanager create-secret --name prod/db --secret-string 'harborlight'", "harborlight"],
    ["wrangler secret put <<<", "npx wrangler secret put API_SECRET <<< 'copperkettle'", "copperkettle"],
    ["echo | wrangler secret put", 'printf "%s" "copperkettle2" | wrangler secret put API_SECRET', "copperkettle2"],
    ["htpasswd -b", "htpasswd -bc /etc/nginx/.htpasswd admin opensesame7", "opensesame7"],
    ["docker login --password-stdin", "echo 'dockerhubpw1' | docker login -u bob --password-stdin", "dockerhubpw1"],
    ["rabbitmqctl add_user", "rabbitmqctl add_user svc rabbitpass42", "rabbitpass42"],
    ["rabbitmqctl change_password", "sudo rabbitmqctl change_password guest burrow-99", "burrow-99"],
    ["chpasswd", "echo 'deploy:Ch4ngedIt' | sudo chpasswd", "Ch4ngedIt"],
    ["chpasswd <<<", "chpasswd <<< 'root:toor2024'", "toor2024"],
    ["ConvertTo-SecureString", '$pw = ConvertTo-SecureString "P@ssw0rdAzure" -AsPlainText -Force', "P@ssw0rdAzure"],
    ["ConvertTo-SecureString -String", "ConvertTo-SecureString -String 'riverstone' -AsPlainText -Force", "riverstone"],
    ["kubectl --from-literal", "kubectl create secret generic db --from-literal=password=seashell", "seashell"],
  ])("%s", hides);
  it.each([
    ["a variable piped in", 'echo "$TOKEN" | gh secret set TOKEN'],
    ["a file read in", "gh secret set KEY < key.pem"],
    ["htpasswd asking", "htpasswd -c /etc/nginx/.htpasswd admin"],
    ["docker login reading a file", "cat ~/pw.txt | docker login -u bob --password-stdin"],
  ])("leaves %s alone", keeps);
});

describe("credentials passed by position in code", () => {
  it.each([
    ["JDBC getConnection", 'Connection c = DriverManager.getConnection(url, user, "jdbcpass1");', "jdbcpass1"],
    ["JDBC getConnection, all literals", 'DriverManager.getConnection("jdbc:postgresql://db/app", "app", "pgsecret");', "pgsecret"],
    ["Go smtp.PlainAuth", 'auth := smtp.PlainAuth("", "me@example.com", "mailpass7", "smtp.example.com")', "mailpass7"],
    ["Go SetBasicAuth", 'req.SetBasicAuth("admin", "gopherpw")', "gopherpw"],
    ["Go DSN", 'db, err := sql.Open("mysql", "root:dsnpass22@tcp(127.0.0.1:3306)/shop")', "dsnpass22"],
    ["C# NetworkCredential", 'var cred = new NetworkCredential("svc", "dotnetpw");', "dotnetpw"],
    ["Java PasswordAuthentication", 'return new PasswordAuthentication("mailer", "javamail1".toCharArray());', "javamail1"],
    ["JS Sequelize", "const db = new Sequelize('shop', 'root', 'seqpass', { dialect: 'mysql' });", "seqpass"],
  ])("%s", hides);
  it.each([
    ["variables only", "DriverManager.getConnection(url, user, password);"],
    ["an empty password", 'smtp.PlainAuth("", user, "", host)'],
  ])("leaves %s alone", keeps);
});

describe("files and framework keys", () => {
  it.each([
    [".pgpass", "db.internal:5432:app:app_user:pgpassfile1", "pgpassfile1"],
    [".pgpass with wildcards", "*:*:*:postgres:allthedbs", "allthedbs"],
    ["Laravel APP_KEY", "APP_KEY=base64:3kq7Vb1m2N8xZ0pQ4rT6yU9wE2sA5dF7gH1jK3lL8m0=", "3kq7Vb1m2N8xZ0pQ4rT6yU9wE2sA5dF7gH1jK3lL8m0="],
    ["WordPress salts", "define( 'AUTH_KEY',         'x]|L9 ;Wq_3-Ne@p>Ue0:r*`Jk+1}z#Fv<8&dT6%hB~' );", "x]|L9 ;Wq_3-Ne@p>Ue0:r*`Jk+1}z#Fv<8&dT6%hB~"],
    ["WordPress NONCE_SALT", "define('NONCE_SALT', 'h!7Gk2p[Q0x$zR5^mW9(vL3');", "h!7Gk2p[Q0x$zR5^mW9(vL3"],
    ["TF_TOKEN_*", "export TF_TOKEN_app_terraform_io=tfcloudtoken1234", "tfcloudtoken1234"],
    ["tfstate plaintext_value", '          "plaintext_value": "stateful-secret",', "stateful-secret"],
    ["tfstate random_password result", '{"type": "random_password", "name": "db", "instances": [{"attributes": {"length": 16, "result": "kR7!vQ2#xZ9mP4wL"}}]}', "kR7!vQ2#xZ9mP4wL"],
    ["a session cookie", "Cookie: theme=dark; sessionid=8x0k2mdl1q9zp3v7; csrftoken=abc", "8x0k2mdl1q9zp3v7"],
    ["a Set-Cookie session", "Set-Cookie: connect.sid=s%3Aq8Z1kLm2nOp3.AbCdEf; Path=/; HttpOnly", "s%3Aq8Z1kLm2nOp3.AbCdEf"],
  ])("%s", hides);
  it.each([
    ["/etc/passwd", "root:x:0:0:root:/root:/bin/bash"],
    ["a WordPress placeholder", "define( 'AUTH_KEY',         'put your unique phrase here' );"],
    ["a theme cookie", "Cookie: theme=dark; lang=en"],
    ["a csrftoken cookie", "Cookie: csrftoken=Qm9vdHN0cmFwQ3NyZg"],
  ])("leaves %s alone", keeps);
});

describe("OAuth codes and base64-wrapped credentials", () => {
  const pem = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\n-----END PRIVATE KEY-----\n";
  const sa = JSON.stringify({ type: "service_account", project_id: "p-1", private_key_id: "a1b2", private_key: pem, client_email: "x@p-1.iam.gserviceaccount.com" }, null, 2);
  it.each([
    ["a callback URL", "GET /auth/callback?code=4%2F0AdQt8qh7Lm2PzX9&state=af0ifjsldkj HTTP/1.1", "4%2F0AdQt8qh7Lm2PzX9"],
    ["a callback URL, state first", "http://localhost:3000/api/auth/callback/github?state=xyz&code=a91c3e7f5b2d4068", "a91c3e7f5b2d4068"],
    ["a base64 PEM", `TLS_KEY=${b64(pem)}`, b64(pem)],
    ["a base64 PEM in YAML", `  tls.key: ${b64(pem)}`, b64(pem)],
    ["a base64 service account", `GCLOUD_SERVICE_KEY=${b64(sa)}`, b64(sa)],
    ["Basic credentials outside Authorization:", `proxy_auth = "Basic ${b64("svc:proxypass1")}"`, b64("svc:proxypass1")],
    ["a docker config auth", `{"auths": {"ghcr.io": {"auth": "${b64("bob:ghcrpass77")}"}}}`, b64("bob:ghcrpass77")],
  ])("%s", hides);
  it.each([
    ["an HTTP status code", "GET /api/items?code=200&page=2"],
    ["a base64 certificate", `CA_CERT=${b64("-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ\n-----END CERTIFICATE-----\n")}`],
    ["base64 of prose", `{"data": "${b64("Hello there, this is a plain note with nothing in it.")}"}`],
  ])("leaves %s alone", keeps);
});

describe("a value printed bare after a command that names a secret", () => {
  it.each([
    ["echo $VAR", "$ echo $DB_PASSWORD\nmarigold-17\n$ ls", "marigold-17"],
    ["kubectl jsonpath | base64 -d", "$ kubectl get secret db -o jsonpath='{.data.password}' | base64 -d\nwillow44\n", "willow44"],
    ["terraform output", "$ terraform output -raw db_password\nfjord-Bright-3\n", "fjord-Bright-3"],
    ["vault kv get -field", "$ vault kv get -field=api_token secret/app\nstormcloud88\n", "stormcloud88"],
  ])("%s", hides);
  it.each([
    ["echo of a plain variable", "$ echo $HOME\n/home/bob\n"],
    ["a command naming no secret", "$ terraform output -raw region\nus-east-1\n"],
  ])("leaves %s alone", keeps);
});

describe("tokens split by escapes or zero-width spaces", () => {
  const token = "ghp_R2d9Xk3mQ7vB1nZ8wL4tY6uH0cJ5fG2aP9sEz";
  it.each([
    ["a \\u escape after 30 characters", `{"t": "${token.slice(0, 34)}\\u00${token.charCodeAt(34).toString(16)}${token.slice(35)}"}`, token.slice(35)],
    ["a zero-width space in the middle", `token ${token.slice(0, 20)}\u200b${token.slice(20)}`, token.slice(20)],
    ["a zero-width joiner near the end", `export GH=${token.slice(0, 36)}\u200d${token.slice(36)}x`, token.slice(4, 36)],
  ])("%s", hides);
});
