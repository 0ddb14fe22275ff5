export function serverProcesses(vars: Record<string, string | undefined>): number;

/** In the primary, forks `count` server processes and resolves false; elsewhere (or for one process) resolves true: serve. */
export function forkServers(count: number): Promise<boolean>;
