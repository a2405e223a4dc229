// A tiny test harness with no runtime of its own: each runner (vitest in Node, workerd and Chromium;
// Deno.test in Deno) registers these tests with its own framework.
export interface PortableTest {
  name: string;
  fn: () => void | Promise<void>;
}

export const tests: PortableTest[] = [];

export function test(name: string, fn: PortableTest["fn"]): void {
  tests.push({ name, fn });
}

export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

export function equal<T>(actual: T, expected: T, what: string): void {
  if (!Object.is(actual, expected)) throw new Error(`${what}: expected ${String(expected)}, got ${String(actual)}`);
}

export function same(actual: unknown, expected: unknown, what: string): void {
  const a = JSON.stringify(actual);
  const b = JSON.stringify(expected);
  if (a !== b) throw new Error(`${what}:\n  expected ${b.slice(0, 500)}\n  got      ${a.slice(0, 500)}`);
}
