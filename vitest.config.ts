import { vanillaExtractPlugin } from "@vanilla-extract/vite-plugin";
import { defineConfig } from "vitest/config";
import tsconfigPaths from "vite-tsconfig-paths";

// Each pass empties and uses its own scratch folder (tests/support/paths.ts), so that the SQLite
// and PostgreSQL passes can run side by side by hand.
process.env.TEST_TMP_DIR ??= "tests/.tmp/sqlite";

export default defineConfig({
  plugins: [vanillaExtractPlugin(), tsconfigPaths()],
  test: {
    include: [
      "tests/unit/**/*.test.{ts,tsx}",
      "tests/integration/**/*.test.{ts,tsx}",
      "app/**/*.test.{ts,tsx}",
      "db/**/*.test.ts",
    ],
    setupFiles: ["tests/support/setup-env.ts"],
    globalSetup: ["tests/support/global-setup.ts"],
    pool: "forks",
    // Three files at once (decisions 279 and 309): they wait on their own built servers, sockets and
    // timers more than on the CPU; with two, a quarter of the 2-core machine's time was still idle
    // (236 s for the pass; 178 s with three). Vitest's default is one less than the cores.
    maxWorkers: 3,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
