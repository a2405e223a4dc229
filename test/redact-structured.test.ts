// A credential's value one step from its name, where agents meet it: `terraform output -json` (each
// output an object whose `value` holds it, `sensitive` marking it), an object under a credential's name,
// and a YAML block scalar under one (`password: |`, the value on the indented lines after). Attacked
// here: each was left in clear (the name's rule reads a value on the next line as the next key).
import { describe, expect, it } from "vitest";
import { redact } from "../src/index.js";

const SECRET = "Hq8vK2mZp9Rt4Wx7";

describe("a value one step from its name", () => {
  it.each([
    ["terraform output -json, one line", `{"db_password": {"sensitive": true, "type": "string", "value": "${SECRET}"}}`],
    ["terraform output -json, as it prints it", `{\n  "db_password": {\n    "sensitive": true,\n    "type": "string",\n    "value": "${SECRET}"\n  }\n}`],
    ["a sensitive output of any name", `{\n  "connection": {\n    "sensitive": true,\n    "type": "string",\n    "value": "${SECRET}"\n  }\n}`],
    ["an object under a credential's name", `{"api_key": {"value": "${SECRET}"}}`],
    ["a YAML literal block", `password: |\n  ${SECRET}`],
    ["a YAML folded block, stripped", `client_secret: >-\n  ${SECRET}`],
    ["a YAML block, nested", `db:\n  auth:\n    api_key: |\n      ${SECRET}\n  host: db.internal`],
    ["a YAML block in a JSON string", `"password: |\\n  ${SECRET}\\n"`],
    // round 15's review
    ["a sensitive output longer than 400 characters (a kubeconfig, a key)", `{"kubeconfig": {"sensitive": true, "type": "string", "value": "${"a".repeat(600)}${SECRET}"}}`],
    ["a YAML block with its indentation indicator first", `password: |2-\n  ${SECRET}`],
    ["a YAML block with a tag", `password: !!str |\n  ${SECRET}`],
    ["a YAML block with an anchor", `password: &pw |\n  ${SECRET}`],
    ["a YAML block under a name with two tails", `aws_secret_access_key: |\n  ${SECRET}`],
  ])("%s", (_, text) => {
    expect(redact(text)).not.toContain(SECRET);
  });

  it("keeps what is no credential's value: an output not marked sensitive, other blocks, placeholders, the next key", () => {
    for (const text of [
      `{"db_host": {"sensitive": false, "type": "string", "value": "db.internal"}}`,
      `description: |\n  The password is stored in vault.`,
      `password: |\n  {{ .Values.db.password }}`,
      `password: ""\nnext_key: |\n  kept as it is`,
      // a name that only holds a credential's word names none (round 15's review)
      `{"max_tokens": {"type": "integer", "value": "4096"}}`,
      `{"token_type": {"value": "Bearer"}}`,
      `{"secret_name": {"value": "db-credentials-prod"}}`,
    ]) {
      expect(redact(text), text).toBe(text);
    }
    // the block ends where its indentation does: the next key stays
    expect(redact(`password: |\n  ${SECRET}\nhost: db.internal`)).toBe("password: |\n  [REDACTED]\nhost: db.internal");
    expect(redact(`password: |\r\n  ${SECRET}\r\nhost: db.internal`)).toBe("password: |\r\n  [REDACTED]\r\nhost: db.internal"); // (its CR kept)
  });
});
