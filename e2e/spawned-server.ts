import { spawn, type ChildProcess } from "node:child_process";

/**
 * An app server the spec starts itself (beside the one playwright.config.ts starts): server.mjs
 * (`npm start`'s server) in the checkout or in .next/standalone, run by node directly so a signal reaches the server, not a wrapper.
 */
export interface SpawnedServer {
  url: string;
  child: ChildProcess;
  /** Everything the process printed so far. */
  log: () => string;
  /** Resolves with the exit code (or signal) and when it came. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

export async function spawnServer({ args, port, env, cwd }: { args: string[]; port: number; env: Record<string, string>; cwd?: string }): Promise<SpawnedServer> {
  const url = `http://127.0.0.1:${port}`;
  if (await fetch(url).then(() => true, () => false)) throw new Error(`port ${port} must be free for the spawned server`);
  const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the server exited:\n${output}`);
    if (await fetch(`${url}/api/health`).then((r) => r.ok, () => false)) return { url, child, log: () => output, exited };
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill("SIGKILL");
  throw new Error(`the server did not start:\n${output}`);
}

/** The JSON log lines a server printed (Next.js's own banner lines are not JSON and are skipped). */
export function jsonLines(log: string): Array<Record<string, unknown>> {
  return log
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}
