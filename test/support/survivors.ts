// What redaction left of a secret: the attack tests of the rules that mask by name and shape share it.

/** Pieces of `secret` (4 characters) that survive in `out`, the redaction of `text`, where the text around the secret does not explain them. */
export function survivors(out: string, secret: string, text: string): string[] {
  const rest = text.split(secret).join("\u0000");
  const found: string[] = [];
  for (let i = 0; i + 4 <= secret.length; i++) {
    const piece = secret.slice(i, i + 4);
    if (out.includes(piece) && !rest.includes(piece) && !"[REDACTED]".includes(piece)) found.push(piece);
  }
  return found;
}
