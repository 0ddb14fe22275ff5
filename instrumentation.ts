/** Runs once when the server starts: migrate, seed the demo course into an empty database, start the worker. */
export async function register() {
  // The one read of process.env outside lib/env.ts: Next.js replaces this literal at build time,
  // which is what keeps the Node-only boot code (argon2, libSQL, pdf.js) out of the Edge bundle.
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { boot } = await import("./lib/server/boot");
    await boot();
  }
}
