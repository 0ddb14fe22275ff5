import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "@": fileURLToPath(new URL(".", import.meta.url)),
      // Server-only modules are plain modules under test; the marker guards client bundles only.
      "server-only": fileURLToPath(new URL("./lib/server-only.stub.ts", import.meta.url)),
    },
  },
  test: {
    include: ["lib/**/*.test.ts", "app/**/*.test.ts", "scripts/**/*.test.ts"],
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 60_000,
    env: { SEED_DEMO: "0", INGEST_WORKER: "0" },
  },
});
