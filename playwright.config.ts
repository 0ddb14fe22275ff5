import { defineConfig, devices } from "@playwright/test";
import { e2eServerEnv, E2E_MAIN_WORKER_ID } from "./e2e/server-env";
import { env } from "./lib/env";

const PORT = env.E2E_PORT;

/**
 * End-to-end tests against the production build, on a fresh database every run (the demo course
 * is seeded into it at start). The browser is the system's chromium (CHROMIUM_PATH), never a
 * downloaded one.
 */
export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  fullyParallel: false,
  workers: 1,
  retries: env.CI ? 1 : 0,
  forbidOnly: Boolean(env.CI),
  timeout: 120_000,
  expect: { timeout: 30_000 },
  reporter: env.CI ? [["list"], ["html", { open: "never" }]] : "list",
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    screenshot: "on",
    trace: "retain-on-failure",
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        launchOptions: {
          executablePath: env.CHROMIUM_PATH,
          args: [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
          ],
        },
      },
    },
  ],
  webServer: {
    command: `rm -rf data/e2e && npm run build && node server.mjs -p ${PORT} -H 127.0.0.1`,
    url: `http://127.0.0.1:${PORT}/`,
    reuseExistingServer: false,
    // The production build is part of this command: on a shared two-core machine it took over 3 minutes.
    timeout: 600_000,
    stdout: "pipe",
    stderr: "pipe",
    env: e2eServerEnv(E2E_MAIN_WORKER_ID),
  },
});
