export function buildDemo(outdir?: string): Promise<string>;
