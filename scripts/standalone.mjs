/**
 * After `next build`: completes .next/standalone so `node .next/standalone/server.mjs` (the app's
 * server: Next.js behind the front door) runs from that folder alone. Next.js leaves out the browser assets (.next/static, public/), which a CDN
 * may serve instead; here the server serves them. drizzle/ is traced into it by
 * outputFileTracingIncludes, and copied again so the migrations are always the build's own.
 */
import { cpSync, existsSync, rmSync } from "node:fs";
import { join } from "node:path";

const out = join(".next", "standalone");
if (!existsSync(join(out, "server.js"))) {
  console.error(`${out}/server.js is missing: run next build (with output: "standalone") first.`);
  process.exit(1);
}
for (const [from, to] of [
  [join(".next", "static"), join(out, ".next", "static")],
  ["public", join(out, "public")],
  ["drizzle", join(out, "drizzle")],
  ["server.mjs", join(out, "server.mjs")],
  [join("lib", "server", "front-door.mjs"), join(out, "lib", "server", "front-door.mjs")],
  [join("lib", "server", "processes.mjs"), join(out, "lib", "server", "processes.mjs")],
]) {
  if (!existsSync(from)) continue;
  rmSync(to, { recursive: true, force: true });
  cpSync(from, to, { recursive: true });
}
console.log(`standalone server ready: node ${join(out, "server.mjs")}`);
