import { spawn, type ChildProcess } from "node:child_process";

/**
 * Another server (`server.mjs`, as `npm start` runs it) of the build the webServer made, beside it (the second instance of
 * instances.spec.ts, the model-configured server of model-stream.spec.ts).
 */
export interface NextServer {
  child: ChildProcess;
  url: string;
  /** Everything it printed so far. */
  log: () => string;
}

async function portInUse(url: string): Promise<boolean> {
  return fetch(url).then(
    () => true,
    () => false,
  );
}

/** Starts server.mjs on `port` with `env` added, and resolves once it answers; fails when it exits first or the port is taken. */
export async function startNextServer(port: number, env: Record<string, string>): Promise<NextServer> {
  const url = `http://127.0.0.1:${port}`;
  if (await portInUse(url)) throw new Error(`port ${port} must be free for another server`);
  // node itself, not npx: SIGKILL must reach the server, not a wrapper. PATH, HOME and the like pass through, as they do to the webServer.
  const child = spawn(process.execPath, ["server.mjs", "-p", String(port), "-H", "127.0.0.1"], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout!.on("data", (d) => (log += d));
  child.stderr!.on("data", (d) => (log += d));
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the server on ${port} exited:\n${log}`);
    try {
      if ((await fetch(url)).ok) return { child, url, log: () => log };
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill("SIGKILL");
  throw new Error(`the server on ${port} did not start:\n${log}`);
}

/** Kills it if it still runs. */
export function stopNextServer(server: NextServer | undefined): void {
  if (server && server.child.exitCode === null && server.child.signalCode === null) server.child.kill("SIGKILL");
}
