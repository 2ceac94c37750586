import { vanillaExtractPlugin } from "@vanilla-extract/vite-plugin";
import { defineConfig } from "vitest/config";
import tsconfigPaths from "vite-tsconfig-paths";

/**
 * `npm run test:postgres`: the integration suite again, on a throwaway PostgreSQL cluster
 * (tests/support/global-setup-postgres.ts). Every test server and every fresh test database gets a
 * PostgreSQL database of its own; the code under test is the same.
 */
/**
 * Files left to the SQLite pass, each for a stated reason. They read or change the server's SQLite
 * file behind its back with raw better-sqlite3 SQL (triggers, renamed tables, pragmas), or test the
 * SQLite-only operations (file backups, db:restore, WAL checkpoint at shutdown).
 */
const SQLITE_ONLY = [
  // backups, db:restore, the WAL checkpoint at shutdown: SQLite files by nature
  "tests/integration/operations.test.ts",
  // failures injected with SQLite triggers and renamed tables
  "tests/integration/failures.test.ts",
  // these check rows through a raw better-sqlite3 handle on the server's file
  "tests/integration/admin-catalog.test.ts",
  "tests/integration/admin-guard.test.ts",
];

export default defineConfig({
  plugins: [vanillaExtractPlugin(), tsconfigPaths()],
  test: {
    include: ["tests/integration/**/*.test.{ts,tsx}"],
    exclude: SQLITE_ONLY,
    setupFiles: ["tests/support/setup-env.ts", "tests/support/setup-postgres.ts"],
    globalSetup: ["tests/support/global-setup.ts", "tests/support/global-setup-postgres.ts"],
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
