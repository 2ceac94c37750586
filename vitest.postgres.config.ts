import { vanillaExtractPlugin } from "@vanilla-extract/vite-plugin";
import { defineConfig } from "vitest/config";
import tsconfigPaths from "vite-tsconfig-paths";
import SlowFilesFirst from "./tests/support/slow-files-first";

/**
 * `npm run test:postgres`: the integration suite again, on a throwaway PostgreSQL cluster
 * (tests/support/global-setup-postgres.ts). Every test server and every fresh test database gets a
 * PostgreSQL database of its own; the code under test is the same.
 */
/**
 * The files left to the SQLite pass, each for a stated reason. Every other file reaches the server's rows
 * through openRawDb / openTestDb (tests/support/fixtures.ts), the same SQL on both databases.
 */
const SQLITE_ONLY = [
  // File backups (the hourly job, db:backup), db:restore and its pid claim, the WAL checkpoint at
  // shutdown: operations on a SQLite file, which PostgreSQL does not have (its backups are the provider's).
  "tests/integration/operations.test.ts",
  // The Nu Html Checker (a Java run of about a minute) checks markup, which the database does not
  // shape: html-validity.test.ts checks the same pages on both databases.
  "tests/integration/nu-html-checker.test.ts",
  // Counts the server process's write system calls per page, which on PostgreSQL include every query
  // sent: the page's writes to its visitor do not depend on the database.
  "tests/integration/socket-writes.test.ts",
  // What the build holds and what every page's shell carries (decision 396): the JavaScript each page
  // loads (page-bundles, game-bundle), the packages a start-up imports, the first-paint hold in the
  // head, a page streamed whole and a hang-up mid-page, the Vary header, the icons. Their pages read
  // rows, but nothing these files check comes from a row or from how it was read.
  "tests/integration/page-bundles.test.ts",
  "tests/integration/game-bundle.test.ts",
  "tests/integration/start-up-imports.test.ts",
  "tests/integration/first-paint-hold.test.ts",
  "tests/integration/page-stream.test.ts",
  "tests/integration/page-headers.test.ts",
  "tests/integration/site-icons.test.ts",
  // The bytes of every page as React's stream writes them (no stray 0x00), and which language each
  // URL answers in through the in-memory page cache: what a row holds does not change either.
  "tests/integration/nul-bytes.test.ts",
  "tests/integration/one-url-one-language.test.ts",
  // `npm run dev`'s server (Vite's module graph): how the server is loaded, not how rows are read.
  "tests/integration/dev-server.test.ts",
];

// Each pass empties and uses its own scratch folder (tests/support/paths.ts), so that the SQLite
// and PostgreSQL passes can run side by side by hand.
process.env.TEST_TMP_DIR ??= "tests/.tmp/postgres";

export default defineConfig({
  plugins: [vanillaExtractPlugin(), tsconfigPaths()],
  test: {
    include: ["tests/integration/**/*.test.{ts,tsx}"],
    exclude: SQLITE_ONLY,
    setupFiles: ["tests/support/setup-env.ts", "tests/support/setup-postgres.ts"],
    globalSetup: ["tests/support/global-setup.ts", "tests/support/global-setup-postgres.ts"],
    pool: "forks",
    // The longest files start first, so that none runs alone at the end of the pass.
    sequence: { sequencer: SlowFilesFirst },
    // Two files at once (decision 279): they wait on their own built servers, sockets and timers more
    // than on the CPU. Vitest's default is one less than the cores: a single file at a time on 2 cores.
    // Two, not three as on SQLite: PostgreSQL's own processes take the idle time (224 s at two,
    // 228 s at three; decision 309).
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
