import { vanillaExtractPlugin } from "@vanilla-extract/vite-plugin";
import { defineConfig } from "vitest/config";
import tsconfigPaths from "vite-tsconfig-paths";
import SlowFilesFirst from "./tests/support/slow-files-first";

// Each pass empties and uses its own scratch folder (tests/support/paths.ts), so that the SQLite
// and PostgreSQL passes can run side by side by hand.
process.env.TEST_TMP_DIR ??= "tests/.tmp/sqlite";

export default defineConfig({
  plugins: [vanillaExtractPlugin(), tsconfigPaths()],
  test: {
    setupFiles: ["tests/support/setup-env.ts"],
    globalSetup: ["tests/support/global-setup.ts"],
    pool: "forks",
    // The longest files start first, so that none runs alone at the end of the pass.
    sequence: { sequencer: SlowFilesFirst },
    // Three files at once (decisions 279 and 309): they wait on their own built servers, sockets and
    // timers more than on the CPU; with two, a quarter of the 2-core machine's time was still idle
    // (236 s for the pass; 178 s with three). Vitest's default is one less than the cores.
    maxWorkers: 3,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.{ts,tsx}", "app/**/*.test.{ts,tsx}", "db/**/*.test.ts"],
          // The unit files share their workers' module cache (decision 398): they start no process
          // and hold no state between files, and a fresh process and imports per file cost more
          // than their tests (30 s against 15 s for the 42 files).
          isolate: false,
        },
      },
      { extends: true, test: { name: "integration", include: ["tests/integration/**/*.test.{ts,tsx}"] } },
    ],
  },
});
