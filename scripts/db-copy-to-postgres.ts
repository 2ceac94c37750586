// npm run db:copy-to-postgres -- SQLITE_FILE [POSTGRES_URL] — moves a site from SQLite to PostgreSQL:
// every row into an empty PostgreSQL database (migrated first), logo files of UPLOADS_DIR included.
// Run it with the site stopped (or read-only), or writes made meanwhile stay behind in the file.
import { Kysely, PostgresDialect } from "kysely";
import { openPgPool } from "~db/client.server";
import { copySqliteToPostgres } from "~db/copy-to-postgres.server";
import type { Database } from "~db/schema";

// The target: the second argument, or the POSTGRES_URL variable (a secret set by `fly mpg attach
// --variable-name POSTGRES_URL`, so the URL never has to be typed on a command line).
const [file, url = process.env.POSTGRES_URL] = process.argv.slice(2).filter((a) => !a.startsWith("--"));
if (!file || !url || !/^postgres(ql)?:\/\//i.test(url)) {
  console.error(
    "Usage: npm run db:copy-to-postgres -- <sqlite-file.db> [postgres://user:password@host/db] (or set POSTGRES_URL)",
  );
  process.exit(2);
}
const target = new Kysely<Database>({ dialect: new PostgresDialect({ pool: openPgPool(url) }) });
try {
  const copied = await copySqliteToPostgres(file, target, { uploadsDir: process.env.UPLOADS_DIR ?? "./data/uploads" });
  for (const [table, rows] of Object.entries(copied)) console.log(`${table}: ${rows}`);
  console.log("Copied. Now point DATABASE_URL at the PostgreSQL database and restart.");
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await target.destroy();
}
