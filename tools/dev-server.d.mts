export function startWranglerDev(options?: { persist?: string; vars?: Record<string, string> }): Promise<{ base: string; stop: () => Promise<void> }>;
