// Commands chained on one line (`a;b`, `a&&b`, `a|b`): a password typed bare ends at the operator where
// a command with a flag follows. Attacked here: the first command's password ran on over the operator
// into the next command, whose name the mask then took, and the next command's password was left in
// clear (`mysql -uroot -pA;docker login -u ci -p B`). And the other way (round 15's review): a password
// that holds `;`, `&`, `|`, `<`, `>`, `(` or `)` where no command follows is one value (`ps` shows
// `-pT0p&S3cret` unquoted), masked whole.
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

  it("a bare password ends before the next command; a quoted one keeps what its quotes hold", () => {
    expect(redact("cd /srv&&mysql -uroot -pHunter2Pass9;docker login -u ci -p Zx81fQ2mN7pL")).toBe("cd /srv&&mysql -uroot -p[REDACTED];docker login -u ci -p [REDACTED]");
    expect(redact("redis-cli -a Hunter2Pass9|grep -c ok")).toBe("redis-cli -a [REDACTED]|grep -c ok");
    expect(redact("mysql -uroot -p'Hunter2;Pass&9|x' db")).toBe("mysql -uroot -p'[REDACTED]' db");
  });

  it.each(["mysql -uroot -pAb(9x)kQ2z db", "sshpass -p T0p&S3cret", "-u admin -p T0p&S3cret", "hdbsql -u SYSTEM -p P<a>ss1word -n host", "mysql -uroot -pA9x;kQ2z", "sshpass -p S3cr3t&pw ssh host", "mysql -uroot -pAb9x>kQ2z", "echo $(mysql -uroot -pHunter2Pass9)"])(
    "a password that holds a shell's operator where no command follows is one value: %s",
    (line) => {
      const password = /-p ?(\S+?)(?:\)| |$)/.exec(line)![1];
      expect(redact(line), line).not.toContain(password.slice(-4));
    },
  );
});
