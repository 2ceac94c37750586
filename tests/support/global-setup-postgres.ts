import { postgresAvailable, startCluster } from "./postgres";

/**
 * The PostgreSQL pass (vitest.postgres.config.ts): one throwaway cluster for the whole run. Its
 * maintenance URL goes to the test workers through TEST_POSTGRES_URL; every test server and every
 * fresh test database gets a new database in it (tests/support/server.ts, tests/support/db.ts).
 */
export default function setup() {
  if (!postgresAvailable())
    throw new Error("PostgreSQL server binaries not found (PG_BIN); run the pass through `npm run test:postgres`.");
  const cluster = startCluster();
  process.env.TEST_POSTGRES_URL = cluster.url("postgres");
  return () => cluster.stop();
}
