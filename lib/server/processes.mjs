/**
 * Several server processes on one port (node:cluster): the question path is CPU work on one
 * event loop, so one process uses one core however many the machine has. Each process is a whole
 * app (its own database connection, admission queue and front door) on the one database file,
 * as "Running more than one instance" describes. Plain JavaScript: server.mjs runs it under node.
 *
 * The first process starts alone and the rest after it listens, so that only one of them
 * migrates the database and seeds the demo course. A process that exits on its own takes the
 * others down with it: whatever supervises the server (systemd, a container runtime) restarts
 * the whole, which is simpler to reason about than a primary that respawns in a loop.
 */
import cluster from "node:cluster";
import { numberSetting } from "./front-door.mjs";

/**
 * The number of server processes from lib/env.ts's SERVER_PROCESSES (default 1).
 * @param {Record<string, string | undefined>} vars the process's environment
 */
export function serverProcesses(vars) {
  return numberSetting(vars, "SERVER_PROCESSES", 1);
}

/**
 * In the primary: forks `count` workers, one after another, and relays SIGTERM/SIGINT to them.
 * Resolves false there; in a worker it resolves true at once (the caller then serves).
 * @param {number} count
 * @returns {Promise<boolean>} whether this process should serve
 */
export async function forkServers(count) {
  if (count <= 1 || !cluster.isPrimary) return true;
  let stopping = false;
  let exitCode = 0;
  const stop = (signal) => {
    stopping = true;
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill(signal);
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  cluster.on("exit", (worker, code, signal) => {
    if (!stopping) {
      console.error(`server process ${worker.process.pid} exited (${signal ?? code}); stopping the others`);
      exitCode = code || 1;
      stop("SIGTERM");
    } else if (code) exitCode ||= code;
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(exitCode);
  });
  for (let i = 0; i < count && !stopping; i++) {
    const worker = cluster.fork();
    await new Promise((resolve) => {
      worker.once("listening", resolve);
      worker.once("exit", resolve);
    });
  }
  return false;
}
