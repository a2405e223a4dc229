// Proof that this project really runs inside workerd, not Node.
import { expect, it } from "vitest";

it("runs inside workerd (the Workers runtime)", () => {
  expect(navigator.userAgent).toBe("Cloudflare-Workers");
});
