import { env } from "./lib/env";

/** Runs once when the server starts: migrate, seed the demo course into an empty database, start the worker. */
export async function register() {
  if (env.NEXT_RUNTIME !== "nodejs") return;
  const { boot } = await import("./lib/server/boot");
  await boot();
}
