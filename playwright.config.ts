import fs from "node:fs";
import path from "node:path";
import { defineConfig, devices, type PlaywrightTestConfig } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3217);
const BASE_URL = `http://localhost:${PORT}`;
const MAIN = { name: "e2e", port: PORT, build: true };
// The live project's server (tests/e2e/support.ts: e2eDb opens its file in that project).
const LIVE_SERVER = { name: "e2e-live", port: PORT + 1, build: false };
// The fake AI provider (both protocols) the assistant talks to: tests/support/fake-ai.ts.
const AI_PORT = Number(process.env.E2E_AI_PORT ?? PORT + 1000);
const LIVE = /-live\.spec\.ts$/;

// Debian's headless shell of the same Chromium when installed (.ci/run installs it): what Playwright
// itself runs headless, a third less CPU than the full browser in headless mode (decision 397).
const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? (fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : "/usr/bin/chromium"),
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
};

/**
 * A built server on a fresh SQLite file. The live project has one of its own, so that its site-wide
 * settings changes reach no other test while the other projects run beside it.
 */
type WebServer = Exclude<NonNullable<PlaywrightTestConfig["webServer"]>, unknown[]>;

function e2eServer({ name, port, build }: { name: string; port: number; build: boolean }): WebServer {
  const baseURL = `http://localhost:${port}`;
  const dbFile = path.resolve(`tests/.tmp/${name}.db`);
  return {
    // A build of the current sources (decision 346), then a fresh database per run, with the marker
    // that says one existed (decision 211); both here because the webServer starts before globalSetup.
    command: `${build ? "node scripts/ensure-build.mjs playwright && " : ""}rm -f "${dbFile}" "${dbFile}-wal" "${dbFile}-shm" "${path.join(path.dirname(dbFile), `.${path.basename(dbFile)}.exists`)}" && exec node build/server.mjs`,
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    // Room for a rebuild on a loaded 2-core machine (about 30 s quiet, 100 s under load).
    timeout: 240_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      NODE_ENV: "production",
      PORT: String(port),
      DATABASE_URL: `file:${dbFile}`,
      SESSION_SECRET: "e2e-secret-0123456789abcdef",
      SITE_URL: baseURL,
      UPLOADS_DIR: path.resolve(`tests/.tmp/${name}-uploads`),
      LOG_REQUESTS: "0",
      // Fixtures write the database behind the server's back: no anonymous page cache and no read cache here.
      PAGE_CACHE_MS: "0",
      READ_CACHE_MS: "0",
      I18N_STRICT: "1",
      ADMIN_EMAIL: "admin@parrainly.test",
      ADMIN_PASSWORD: "e2e-admin-passphrase",
      ANTHROPIC_API_KEY: "e2e-anthropic-key",
      ANTHROPIC_BASE_URL: `http://127.0.0.1:${AI_PORT}`,
      OPENAI_API_KEY: "e2e-openai-key",
      OPENAI_BASE_URL: `http://127.0.0.1:${AI_PORT}/v1`,
      // No e2e test waits for this timeout; it only ends a call the fake never answers, with room
      // for a loaded 2-core machine.
      AI_REQUEST_TIMEOUT_MS: "30000",
      // The whole suite's calls fit in a day's budget (the budget itself is tested over HTTP).
      AI_DAILY_TOKEN_BUDGET: "100000000",
      // The whole suite draws from one address, more than a day's draws of one visitor (the daily
      // bounds per network are tested over HTTP: tests/integration/fair-rotation.test.ts).
      DRAW_DAILY_LIMIT: "0",
      // Nor the soft bound's browser step: tests/e2e/draw-proof.spec.ts starts a server of its own for it.
      DRAW_SOFT_LIMIT: "0",
      // scrypt at 2^10 for new hashes, as every test server (decision 399).
      PASSWORD_HASH_COST: "10",
      // The sitemap audit may fetch this server's own sitemap (tests only).
      AUDIT_ALLOWED_HOSTS: `localhost:${port}`,
    },
  };
}

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  // Two on 2 cores. Three were 9 % faster but failed a form test once in two runs (decision 396).
  workers: 2,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: [["list"]],
  globalSetup: "./tests/e2e/global-setup.ts",
  use: {
    baseURL: BASE_URL,
    // A failed test keeps a screenshot. Traces (each action's DOM snapshot, network and console) only
    // when asked, `PW_TRACE=1` on a rerun of the failing test: recorded for every test and thrown away
    // on success, they cost about a tenth of the suite's time on 2 cores (decision 309 removed the
    // screencast for the same reason).
    trace: process.env.PW_TRACE ? { mode: "retain-on-failure", screenshots: false } : "off",
    screenshot: "only-on-failure",
    launchOptions: chromium,
  },
  projects: [
    {
      name: "js",
      testIgnore: LIVE,
      // Tests tagged for the other project (JS_ONLY, NO_JS_ONLY in tests/e2e/support.ts) are not run here.
      grepInvert: /@no-js-only/,
      use: { ...devices["Desktop Chrome"], locale: "fr-FR", launchOptions: chromium, javaScriptEnabled: true },
    },
    {
      name: "no-js",
      testIgnore: LIVE,
      grepInvert: /@js-only/,
      use: { ...devices["Desktop Chrome"], locale: "fr-FR", launchOptions: chromium, javaScriptEnabled: false },
    },
    // Specs that flip site-wide settings run on a server of their own (decision 396), beside the other
    // projects, so no other test sees the change; and one at a time: each opens live-settings streams,
    // and every page here comes from one address, which the server lets hold 4 at once (decision
    // 280): two of these specs side by side took the fifth place, whose 204 left a test waiting for a
    // stream that never opened.
    {
      name: "live",
      testMatch: LIVE,
      workers: 1,
      use: {
        ...devices["Desktop Chrome"],
        baseURL: `http://localhost:${LIVE_SERVER.port}`,
        locale: "fr-FR",
        launchOptions: chromium,
        javaScriptEnabled: true,
      },
    },
  ],
  webServer: [
    {
      command: "npx tsx tests/support/fake-ai-cli.ts",
      url: `http://127.0.0.1:${AI_PORT}/healthz`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: "ignore",
      stderr: "pipe",
      env: { FAKE_AI_PORT: String(AI_PORT) },
    },
    e2eServer(MAIN),
    // After the first: its command builds when a source changed, and webServers start one by one.
    e2eServer(LIVE_SERVER),
  ],
});
