export function startWranglerDev(options?: { persist?: string; vars?: Record<string, string>; assets?: string }): Promise<{ base: string; stop: () => Promise<void> }>;
