import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { env } from "@/lib/env";
import { serverProcesses } from "./processes.mjs";

const MODULE = fileURLToPath(new URL("./processes.mjs", import.meta.url));

let child: ChildProcess | undefined;
let dir: string | undefined;
afterEach(() => {
  if (child?.exitCode === null) child.kill("SIGKILL");
  if (dir) rmSync(dir, { recursive: true, force: true });
  child = dir = undefined;
});

/**
 * A server as server.mjs runs it: `count` processes on one port, each answering with its pid
 * (and, for the path /exit, exiting with code 3). Resolves with the one port they share once every process listens.
 */
async function startServers(count: number): Promise<{ port: number; exited: Promise<number | null> }> {
  dir = mkdtempSync(join(tmpdir(), "processes-"));
  const script = join(dir, "server.mjs");
  writeFileSync(
    script,
    `import { createServer } from "node:http";
import { forkServers } from ${JSON.stringify(MODULE)};
if (await forkServers(${count})) {
  const server = createServer((req, res) => {
    if (req.url === "/exit") process.exit(3);
    res.end(String(process.pid));
  });
  // Port 0 in a cluster: the primary picks one free port and every process shares it.
  server.listen(0, "127.0.0.1", () => console.log("listening " + server.address().port + " "));
}
`,
  );
  child = spawn(process.execPath, [script], { stdio: ["ignore", "pipe", "pipe"] });
  const exited = new Promise<number | null>((resolve) => child!.once("exit", (code) => resolve(code)));
  let out = "";
  const ports = await new Promise<string[]>((resolve, reject) => {
    child!.stdout!.on("data", (b) => {
      out += b;
      const seen = [...out.matchAll(/listening (\d+) /g)].map((m) => m[1]);
      if (seen.length === count) resolve(seen);
    });
    void exited.then((code) => reject(new Error(`exited with ${code} before listening: ${out}`)));
  });
  expect(new Set(ports).size).toBe(1);
  return { port: Number(ports[0]), exited };
}

describe("forkServers", () => {
  it("serves one port from several processes, and stops them all on SIGTERM", async () => {
    const { port, exited } = await startServers(2);
    const pids = new Set<string>();
    // The primary hands connections out in turn; a fresh connection per request lets it.
    for (let i = 0; i < 8; i++) pids.add(await (await fetch(`http://127.0.0.1:${port}/`, { headers: { connection: "close" } })).text());
    expect(pids.size).toBe(2);
    expect(pids.has(String(child!.pid))).toBe(false);
    child!.kill("SIGTERM");
    expect(await exited).toBe(0);
  });

  it("stops the others, with the failing code, when one process exits on its own", async () => {
    const { port, exited } = await startServers(2);
    await fetch(`http://127.0.0.1:${port}/exit`).catch(() => undefined);
    expect(await exited).toBe(3);
  });

  it("runs in the calling process when one is asked for", async () => {
    const { port, exited } = await startServers(1);
    expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe(String(child!.pid));
    // No supervisor: the signal ends the process itself (no exit code).
    child!.kill("SIGTERM");
    expect(await exited).toBeNull();
  });

  it("reads SERVER_PROCESSES with lib/env.ts's default", () => {
    expect(serverProcesses({})).toBe(env.SERVER_PROCESSES);
    expect(serverProcesses({ SERVER_PROCESSES: "3" })).toBe(3);
  });
});
