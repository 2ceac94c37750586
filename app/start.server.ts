/**
 * The app's life around its requests, which the server (server/app.ts) calls: the database made
 * ready before the port opens, the background jobs, and the close at shutdown.
 */
import { applyStagedRestore, claimDatabase } from "~db/backup.server";
import { setAvailabilityLog, watchDatabase } from "~db/availability.server";
import { shareWritesAcrossProcesses } from "~db/site-writes.server";
import { closeDb, dialectOf, getDb, getDialect, openPgClient, shortenLockWaits, roomToWrite } from "~db/client.server";
import { migrateToLatest } from "~db/migrate.server";
import { migrations } from "~migrations/index";
import { getSettings } from "~db/repositories/settings.server";
// Statically: the server's write guard (server/guards.ts, through auth.server) loads it at start anyway.
import { anyAdmin, PASSWORD_HASH_COST, upsertAdmin } from "~db/repositories/users.server";
import { seedBase } from "~db/seed.server";
import { startReadReplica } from "~db/read-replica.server";
import {
  explainStartFailure,
  markDatabaseExists,
  refuseLostDatabase,
  refuseNewerDatabase,
  refuseTransactionPooler,
  StartRefused,
} from "~db/start-checks.server";
import { startBackupJob } from "~/features/admin/site/backup-job.server";
import { startCleanupJob } from "~/features/admin/site/cleanup-job.server";
import { startHistoryJob } from "~/features/admin/site/history-job.server";
import { startRetentionJob } from "~/features/admin/site/retention-job.server";
import { startPlatformDeletionsJob } from "~/features/admin/catalog/platform-deletions.server";
import { getEnv, seedsDemo, sqlitePathFromUrl } from "~/utils/env.server";

let releaseDatabase = () => {};

/**
 * Everything true before the first request; a database that stops the start does so with one line
 * for the operator (StartRefused: which file, what is wrong, what to do).
 */
export async function prepareDatabase(log: (line: string) => void): Promise<void> {
  const env = getEnv();
  // From the URL, not getDialect(): nothing may open the file before a staged restore and the checks.
  const sqliteFile = dialectOf(env.DATABASE_URL) === "sqlite" ? sqlitePathFromUrl(env.DATABASE_URL) : null;
  setAvailabilityLog(log);
  try {
    await prepareDatabaseFile(log, sqliteFile);
  } catch (error) {
    releaseDatabase();
    throw error instanceof StartRefused
      ? error
      : new StartRefused(explainStartFailure(error, sqliteFile ?? "the PostgreSQL database"));
  }
  if (sqliteFile) markDatabaseExists(sqliteFile);
  // From now on a lock held elsewhere holds the event loop 20 ms at most (runWrite waits asynchronously).
  shortenLockWaits();
}

async function prepareDatabaseFile(log: (line: string) => void, sqliteFile: string | null): Promise<void> {
  const env = getEnv();
  // Staged restores and the pid claim are about a SQLite file; PostgreSQL has its own backups.
  if (sqliteFile) {
    const file = sqliteFile;
    // A restore staged with `npm run db:restore -- FILE --at-next-start` goes in before the database opens.
    const restored = applyStagedRestore(file);
    if (restored) log(`[db] restored the staged backup ${restored}`);
    refuseLostDatabase(file, { backupDir: env.BACKUP_DIR, startFresh: env.DATABASE_START_FRESH });
    // The claim lets `npm run db:restore` refuse to overwrite the database while this server runs.
    releaseDatabase = claimDatabase(file);
  } else {
    log("[db] PostgreSQL");
    await refuseTransactionPooler(() => openPgClient(env.DATABASE_URL));
  }
  const db = getDb();
  // A newer release already migrated past this version (additive migrations only): nothing to run,
  // and the migrator would refuse the migrations it does not know.
  const ahead = (await refuseNewerDatabase(db, sqliteFile ?? "the PostgreSQL database", log)) === "ahead";
  const applied = ahead ? [] : await migrateToLatest(db);
  log(applied.length ? `[db] migrations applied: ${applied.join(", ")}` : "[db] schema up to date");
  const seeded = await seedBase(db);
  if (seeded.platforms || seeded.settings) log(`[db] seeded ${seeded.platforms} platform(s), ${seeded.settings} setting(s)`);
  // A database this start created (its first migration applied now) is fresh: a first `npm start`
  // shows a site with codes to draw, and says how to start empty (decision 345).
  const fresh = applied[0] === Object.keys(migrations)[0];
  if (seedsDemo(env, fresh)) {
    const { seedDemo } = await import("~db/seed-demo.server");
    const added = await seedDemo(db);
    log(
      env.SEED_DEMO
        ? `[db] demo data: ${added}`
        : `[db] new database: demo data added (${added}); SEED_DEMO=0 starts an empty site`,
    );
  }
  if ((env.PASSWORD_HASH_COST ?? PASSWORD_HASH_COST) < PASSWORD_HASH_COST)
    log(
      `[admin] PASSWORD_HASH_COST=${env.PASSWORD_HASH_COST}: new password hashes are cheaper than OWASP's setting (14); for tests only`,
    );
  if (env.ADMIN_EMAIL && env.ADMIN_PASSWORD) {
    log(`[admin] ${env.ADMIN_EMAIL}: ${await upsertAdmin(env.ADMIN_EMAIL, env.ADMIN_PASSWORD)}`);
  } else if (!(await anyAdmin(db))) {
    log("[admin] none yet: npm run admin:create -- --email you@example.com --password 'a long passphrase'");
  }
  // Loads the settings; on PostgreSQL this also starts listening for other processes' changes, so
  // the live settings stream works from the first request.
  await getSettings(db);
  // On PostgreSQL, every other process hears of this one's writes and this one of theirs (decision 365).
  await shareWritesAcrossProcesses();
  if (env.DATABASE_READ_URL && getDialect() === "postgres") {
    startReadReplica(env.DATABASE_READ_URL);
    log("[db] DATABASE_READ_URL: public reads go to the replica while it is less than a second behind");
  }
}

export function startJobs(log: (line: string) => void): () => Promise<void> {
  const env = getEnv();
  // Expired temporary codes go when enable_auto_cleanup is 'true' (checked at each run).
  // The database file still in place, and whether a full disk has room again (/healthz).
  // Each job's own first run and interval unless JOB_INTERVAL_SECONDS sets one for all: then each job
  // first runs one interval after the start (a test's seeded history stays while the test reads it).
  const interval = env.JOB_INTERVAL_SECONDS === undefined ? undefined : env.JOB_INTERVAL_SECONDS * 1000;
  const every = interval === undefined ? {} : { intervalMs: interval, firstRunMs: interval };
  const stops: (() => void | Promise<void>)[] = [startCleanupJob(log, every), watchDatabase(roomToWrite)];
  // Old draws and answers rolled up into daily figures, then removed with what no rule needs (decision 192).
  stops.push(startHistoryJob(log, every));
  // Visitors' data past the period the privacy page states, removed or emptied (decision 321).
  stops.push(startRetentionJob(log, every));
  // Platform deletions an admin began, finished in the background, after a restart too (decision 292).
  stops.push(startPlatformDeletionsJob(log, every));
  // Checked, rotated online backups when BACKUP_DIR is set (SQLite: PostgreSQL's are the provider's).
  if (env.BACKUP_DIR && getDialect() === "sqlite") {
    const options = {
      dir: env.BACKUP_DIR,
      keep: env.BACKUP_KEEP,
      maxBytes: env.BACKUP_MAX_MB === undefined ? undefined : env.BACKUP_MAX_MB * 1024 * 1024,
      intervalMs: env.BACKUP_INTERVAL_SECONDS * 1000,
    };
    stops.push(startBackupJob(log, options));
  }
  // Resolves once every job's run under way has ended its batch: the database closes after that (decision 294).
  return async () => {
    await Promise.all(stops.map((stop) => stop()));
  };
}

/** Closes the database (graceful shutdown); a failure to fold the WAL in is logged, not thrown. */
export async function closeDatabase(): Promise<void> {
  try {
    await closeDb();
  } finally {
    releaseDatabase();
  }
}
