// Commands chained on one line (`a;b`, `a&&b`, `a|b`): a shell ends an unquoted word at `;`, `&`, `|`,
// `<`, `>`, `(` and `)`, so a password typed bare ends there too. Attacked here: the first command's
// password ran on over the operator into the next command, whose name the mask then took, and the
// next command's password was left in clear (`mysql -uroot -pA;docker login -u ci -p B`).
import { describe, expect, it } from "vitest";
import { redact } from "../src/index.js";
import { SHAPE_EXAMPLES } from "./support/adversarial.js";
import { survivors } from "./support/survivors.js";

/** The catalogue's command-line examples, each with a password typed bare or quoted. */
const COMMANDS = SHAPE_EXAMPLES.filter((e) => /^(?:mysql|sshpass|docker login|redis-cli|smbclient|ssh-keygen|mongosh|cqlsh|hdbsql)\b/.test(e));
/** What `redact` leaves of the example `e` in `text`, beyond what it leaves of it alone. */
const leftOf = (text: string, e: string) => {
  const alone = new Set(survivors(redact(e), e, e));
  return survivors(redact(text), e, text).filter((piece) => !alone.has(piece));
};

describe("commands chained on one line", () => {
  it("has the command examples to chain", () => {
    expect(COMMANDS.length).toBeGreaterThanOrEqual(10);
  });

  // (not `>` or `<`: a redirect's file is a word of the same command, whose arguments run on after it)
  it.each([";", "&&", "&", "|", "||", " ; ", " && ", "\n"])("the first command's password never hides the next one's: joined by %j", (op) => {
    for (const first of COMMANDS) {
      for (const next of COMMANDS) {
        const line = `${first}${op}${next}`;
        expect(leftOf(line, next), line).toEqual([]);
        expect(leftOf(line, first), line).toEqual([]);
      }
    }
  });

  it("a bare password ends where the shell ends the word; a quoted one keeps what its quotes hold", () => {
    expect(redact("cd /srv&&mysql -uroot -pHunter2Pass9;docker login -u ci -p Zx81fQ2mN7pL")).toBe("cd /srv&&mysql -uroot -p[REDACTED];docker login -u ci -p [REDACTED]");
    expect(redact("redis-cli -a Hunter2Pass9|grep ok")).toBe("redis-cli -a [REDACTED]|grep ok");
    expect(redact("echo $(mysql -uroot -pHunter2Pass9)")).toBe("echo $(mysql -uroot -p[REDACTED])");
    expect(redact("mysql -uroot -pHunter2Pass9>out.txt")).toBe("mysql -uroot -p[REDACTED]>out.txt");
    expect(redact("mysql -uroot -p'Hunter2;Pass&9|x' db")).toBe("mysql -uroot -p'[REDACTED]' db");
  });
});
