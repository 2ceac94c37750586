import { defineConfig } from "vitest/config";
import tsconfigPaths from "vite-tsconfig-paths";

/**
 * `npm run test:reliability`: the hostile-client suite (fuzzed forms, kill -9, backup, slow
 * clients, concurrent draws) against the built server, one file at a time to keep the load bounded.
 */
export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    include: ["tests/reliability/**/*.test.ts"],
    setupFiles: ["tests/support/setup-env.ts"],
    globalSetup: ["tests/reliability/global-setup.ts"],
    pool: "forks",
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 60_000,
  },
});
