/**
 * The production server (`npm start`, and `node server.mjs` in .next/standalone): Next.js's
 * request handler behind the front door (lib/server/front-door.mjs), which refuses answers past
 * its bound before Next.js routes them. Takes `next start`'s options: -p/--port and
 * -H/--hostname, else PORT and HOSTNAME.
 *
 * Like instrumentation.ts, this file touches process.env itself: it runs under plain node, before
 * and outside the app's bundle, so lib/env.ts (TypeScript) cannot be loaded here. It reads only
 * the listening address, the door's bounds and the number of processes, with lib/env.ts's
 * defaults (front-door.test.ts and processes.test.ts check they agree), and sets what `next
 * start` and the standalone server.js set.
 */
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { createFrontDoor, doorSettings } from "./lib/server/front-door.mjs";
import { forkServers, serverProcesses } from "./lib/server/processes.mjs";

const { values } = parseArgs({ options: { port: { type: "string", short: "p" }, hostname: { type: "string", short: "H" } } });
const port = Number(values.port ?? process.env.PORT ?? 3000);
const hostname = values.hostname ?? process.env.HOSTNAME ?? "0.0.0.0";
process.env.NODE_ENV = "production";

// With SERVER_PROCESSES > 1 this process only supervises; its forks run what follows.
if (await forkServers(serverProcesses(process.env))) {
  // In .next/standalone there is no next.config.ts: the build's own config is used, from where
  // Next.js's standalone server.js reads it, and paths resolve from that folder, as they do there.
  const root = dirname(fileURLToPath(import.meta.url));
  const standalone = !existsSync(join(root, "next.config.ts"));
  let conf;
  if (standalone) {
    process.chdir(root);
    conf = JSON.parse(readFileSync(join(root, ".next", "required-server-files.json"), "utf8")).config;
    process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(conf);
  }

  const { default: next } = await import("next");
  const app = next({ dev: false, dir: root, hostname, port, conf });
  const handle = app.getRequestHandler();
  await app.prepare();
  const door = createFrontDoor(doorSettings(process.env));
  createServer(door.listener(handle)).listen(port, hostname, () => console.log(`ready on http://${hostname}:${port} (pid ${process.pid})`));
}
