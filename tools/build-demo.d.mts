export function buildDemo(): Promise<string>;
