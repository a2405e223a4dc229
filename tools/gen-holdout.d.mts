export interface HoldoutPositive { kind: string; family: string; split: "dev" | "check"; secret: string; line: string }
export interface HoldoutNegative { kind: string; split: "dev" | "check"; line: string }
export function generate(): { positives: HoldoutPositive[]; negatives: HoldoutNegative[]; split: Map<string, "dev" | "check"> };
export function escapeCell(cell: string): string;
