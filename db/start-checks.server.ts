import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { migrations } from "~migrations/index";
import type { DB } from "./client.server";

/**
 * A start refused for a reason the operator must act on: its message is one line (which file, what
 * is wrong, what to do), printed without a stack (decision 211).
 */
export class StartRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StartRefused";
  }
}

/**
 * A small file beside the database (a dot file, so `rm app.db*` leaves it) saying that a database
 * existed at this path: a start that finds the path empty then refuses instead of creating an empty
 * database over the loss.
 */
function existenceMarker(dbFile: string): string {
  const resolved = path.resolve(dbFile);
  return path.join(path.dirname(resolved), `.${path.basename(resolved)}.exists`);
}

/** After a successful start: remember that a database lives at this path. */
export function markDatabaseExists(dbFile: string): void {
  const marker = existenceMarker(dbFile);
  if (!fs.existsSync(marker)) fs.writeFileSync(marker, `${new Date().toISOString()} ${path.resolve(dbFile)}\n`);
}

/**
 * Before opening: a missing (or empty) database file where one existed (the marker, or backups in
 * BACKUP_DIR) refuses the start, unless `startFresh` (DATABASE_START_FRESH=1) says to create one.
 */
export function refuseLostDatabase(dbFile: string, { backupDir, startFresh }: { backupDir?: string; startFresh: boolean }): void {
  if (startFresh) return;
  const size = fs.existsSync(dbFile) ? fs.statSync(dbFile).size : null;
  if (size !== null && size > 0) return;
  const marker = existenceMarker(dbFile);
  const backups = backupDir && fs.existsSync(backupDir) ? fs.readdirSync(backupDir).filter((name) => name.endsWith(".db")) : [];
  if (!fs.existsSync(marker) && backups.length === 0) return;
  const evidence = fs.existsSync(marker) ? `its marker ${marker}` : `${backups.length} backup(s) in ${backupDir}`;
  throw new StartRefused(
    `${path.resolve(dbFile)}: the database is missing although one existed here (${evidence}): ` +
      "restore a backup with `npm run db:restore -- FILE`, or set DATABASE_START_FRESH=1 to start with an empty database.",
  );
}

/**
 * A migration that only adds (a table, a nullable or defaulted column, an index, a function) says so
 * in its name: `0023_what_additive`. Code older than it runs unchanged beside it.
 */
const isAdditive = (name: string): boolean => name.endsWith("_additive");

/**
 * Before migrating: a database that ran migrations this version does not know was written by a newer
 * one; refused unless all of them are additive ("ahead": nothing to migrate, the newer release did).
 */
export async function refuseNewerDatabase(db: DB, dbFile: string, log?: (line: string) => void): Promise<"ahead" | void> {
  let applied: string[];
  try {
    const rows = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
    applied = rows.rows.map((row) => row.name);
  } catch {
    return; // a fresh database: no migration table yet
  }
  const unknown = applied.filter((name) => !(name in migrations));
  if (unknown.length === 0) return;
  // A rolling deploy (decision 369): a newer release's migrations that only add (named `…_additive`)
  // leave this version's queries valid, so it keeps serving beside them until it is replaced.
  if (unknown.every(isAdditive)) {
    log?.(`[db] newer additive migrations (${unknown.join(", ")}): this version runs beside them until it is replaced`);
    return "ahead";
  }
  throw new StartRefused(
    `${dbFile}: written by a newer version of Parrainly: run that version or restore a backup ` +
      `(npm run db:restore -- FILE); unknown here: migration ${unknown.join(", ")}.`,
  );
}

/** The one line an operator reads when the database stops the start. */
export function explainStartFailure(error: unknown, dbFile: string): string {
  if (error instanceof StartRefused) return error.message;
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
  const what =
    code === "SQLITE_NOTADB" || code === "SQLITE_CORRUPT"
      ? "not a readable SQLite database (damaged, or another file)"
      : typeof code === "string" && code.startsWith("SQLITE_READONLY")
        ? "read-only (the file or its directory cannot be written by this user)"
        : code === "SQLITE_CANTOPEN" || code === "EACCES"
          ? "cannot be opened (check the path and the permissions of its directory)"
          : typeof code === "string" && code.startsWith("SQLITE_FULL")
            ? "the disk is full"
            : typeof code === "string" && code.startsWith("SQLITE_BUSY")
              ? "locked by another process (a script or sqlite3 holding a write)"
              : null;
  if (what) return `${dbFile}: ${what} (${message}): fix it or restore a backup (npm run db:restore -- FILE).`;
  return `${dbFile}: the database could not be prepared (${message}): fix the cause or restore a backup (npm run db:restore -- FILE).`;
}

/**
 * PostgreSQL behind a transaction-mode pooler (PgBouncer's `pool_mode = transaction`, the pooled URL
 * a managed PostgreSQL hands out first) breaks what needs a session: LISTEN (caches across VMs,
 * the live settings) and session advisory locks (one runner per job). Two connections opened one
 * after the other that land on the same server process can only be a pooler's: refused, in one line.
 */
export async function refuseTransactionPooler(
  openClient: () => {
    connect(): Promise<unknown>;
    query(text: string): Promise<{ rows: Array<{ pid: number }> }>;
    end(): Promise<void>;
  },
): Promise<void> {
  const first = openClient();
  const second = openClient();
  try {
    await first.connect();
    await second.connect();
    const a = (await first.query("select pg_backend_pid() as pid")).rows[0]?.pid;
    const b = (await second.query("select pg_backend_pid() as pid")).rows[0]?.pid;
    if (a !== undefined && a === b)
      throw new StartRefused(
        "DATABASE_URL goes through a transaction-mode pooler: LISTEN and advisory locks need their own session. " +
          "Use the database's direct URL (or a session-mode pooler): see docs/operations.md, Scale out.",
      );
  } finally {
    await Promise.allSettled([first.end(), second.end()]);
  }
}
