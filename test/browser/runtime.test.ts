// Proof that this project really runs inside Chromium, not Node.
import { expect, it } from "vitest";

it("runs inside Chromium", () => {
  expect(navigator.userAgent).toMatch(/Chrome\/\d+/);
  expect(typeof document.createElement).toBe("function");
});
