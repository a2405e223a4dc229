// The secret-name shape's check as main ordered it before round 13's `floor` lane (src/redact/shapes.ts
// at 04a6212): the turn-downs first, what names a value last. The lane reads what names a value right
// after the call test (adversarial text gives a name every few characters whose value no name takes);
// test/redact-checks.test.ts holds both to the same verdicts. The small private tests, copied verbatim.
import { PARTS, idNamed, identifier, looksRandom, nameCode, notAfter } from "../../src/redact/shapes.js";

const PLACEHOLDER = /^(?:\$[{(A-Za-z_]|%[A-Za-z_(]|<|\{[{A-Za-z_])|x{4}|example|fake|dummy|changeme|placeholder|your[_-]|redacted|^\*{3}/i;
const passwordLike = (value: string) =>
  value.length >= 8 && /\d/.test(value) && /[A-Za-z]/.test(value) && /[^\w\s]/.test(value) && !/\s|\w\(|[$#{]\{|\//.test(value) && !PLACEHOLDER.test(value) && !PARTS.VERSION.test(value);
const passwordNamed = (before: string, match: string) => /^(?:pass|pwd|[_-]pw)/i.test(match) && !/[a-z]p|[A-Z]P/.test(before.slice(-1) + match[0]);
const csrfCookie = (v: string) => ((v.charCodeAt(0) | 32) === 99 || (v.charCodeAt(0) | 32) === 120) && (v.charCodeAt(1) | 32) === 115 && (v.charCodeAt(2) | 32) === 114 && (v.charCodeAt(3) | 32) === 102 && /^[\w-]*=/.test(v.slice(4));
const HEX_ID = /^(?:[\da-f]{8,64}|[\da-f]{8}(?:-[\da-f]{4}){3}-[\da-f]{12})$/;

export const secretNameValid = (v: string, before: string, after: string, match: string, group: number) =>
  after !== "(" &&
  !notAfter(before) &&
  !csrfCookie(v) &&
  !idNamed(before, match, match.lastIndexOf(v)) &&
  !(group > 4 && (identifier(v) || (HEX_ID.test(v) && !nameCode(before.charCodeAt(before.length - 1))))) &&
  (group > 4 || PARTS.hooks.named(v, before, after, match, group) || looksRandom(v) || (group < 4 && passwordLike(v) && (group < 3 ? !/^(?:login|auth|cookie)/i.test(match) : passwordNamed(before, match) && !PARTS.codePath(v))));
