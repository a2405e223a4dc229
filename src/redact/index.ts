// redact: secrets never cross a compaction boundary. Shapes, not known strings; linear-time patterns.

interface Shape {
  kind: string;
  pattern: RegExp;
  /** Which capture group holds the secret value (0 = the whole match). */
  group?: number;
}

const SHAPES: Shape[] = [
  { kind: "private-key", pattern: /-----BEGIN[A-Z ]{0,40}PRIVATE KEY-----[\s\S]{0,20000}?-----END[A-Z ]{0,40}PRIVATE KEY-----/g },
  { kind: "vendor-token", pattern: /\b(?:sk-(?:proj-|ant-|live_|test_)?[A-Za-z0-9_-]{20,}|gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,}|xox[abposr]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{35}|glpat-[A-Za-z0-9_-]{20,}|[rs]k_(?:live|test)_[A-Za-z0-9]{20,})/g },
  { kind: "jwt", pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { kind: "auth-header", pattern: /\b(?:Bearer|Basic|Token)\s+([A-Za-z0-9._~+/=-]{12,})/g, group: 1 },
  { kind: "url-credentials", pattern: /\b([a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/@]{1,100}:)([^\s@/]{3,200})@/gi, group: 2 },
  {
    kind: "assignment",
    pattern: /(?:secret|passw(?:or)?d|passwd|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|credential)[\w.-]{0,20}["']?\s{0,4}[:=]\s{0,4}["']?([^\s"',;]{8,})/gi,
    group: 1,
  },
];

export const REDACTED = "[REDACTED]";

function mask(value: string): string {
  return value.length >= 24 ? `${value.slice(0, 8)}…${REDACTED}` : REDACTED;
}

/** Replaces every recognised secret in `text`; everything else is returned as it was. */
export function redact(text: string): string {
  let out = text;
  for (const shape of SHAPES) {
    out = out.replace(shape.pattern, (match, ...groups: unknown[]) => {
      if (shape.kind === "private-key") return `[REDACTED PRIVATE KEY]`;
      const g = shape.group ?? 0;
      const value = g === 0 ? match : (groups[g - 1] as string);
      if (value === undefined || value.includes(REDACTED)) return match;
      return g === 0 ? mask(match) : match.replace(value, mask(value));
    });
  }
  return out;
}
