import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";

/** Backup files are named by their UTC time, so a plain sort orders them. */
const BACKUP_NAME = /^app-\d{8}T\d{6}Z\.db$/;

function stamp(now: Date): string {
  return now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
}

/** `PRAGMA integrity_check` on a file opened read-only; true when SQLite answers "ok". */
export function isIntact(file: string): boolean {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const rows = db.pragma("integrity_check") as Array<{ integrity_check: string }>;
    return rows.length === 1 && rows[0]?.integrity_check === "ok";
  } finally {
    db.close();
  }
}

export interface BackupResult {
  file: string;
  bytes: number;
  ms: number;
  removed: string[];
}

/**
 * One online backup of the open database through SQLite's backup API (consistent while writes go
 * on), checked with integrity_check, then only the newest `keep` backups are kept. A backup that
 * fails its check is deleted and reported as an error, never kept as if it were good.
 */
export async function backupDatabase(
  sqlite: SQLite.Database,
  dir: string,
  keep: number,
  now = new Date(),
): Promise<BackupResult> {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `app-${stamp(now)}.db`);
  const partial = `${file}.partial`;
  const started = Date.now();
  await sqlite.backup(partial);
  if (!isIntact(partial)) {
    fs.rmSync(partial, { force: true });
    throw new Error(`backup ${file} failed integrity_check`);
  }
  fs.renameSync(partial, file);
  const backups = fs
    .readdirSync(dir)
    .filter((name) => BACKUP_NAME.test(name))
    .sort();
  const removed = backups.slice(0, Math.max(0, backups.length - keep));
  for (const name of removed) fs.rmSync(path.join(dir, name), { force: true });
  return { file, bytes: fs.statSync(file).size, ms: Date.now() - started, removed };
}

/**
 * The running server claims its database with a small file beside it holding its pid, so that
 * `npm run db:restore` can refuse to overwrite a database a live process is using.
 */
function claimFile(dbFile: string): string {
  return `${path.resolve(dbFile)}.server-pid`;
}

export function claimDatabase(dbFile: string): () => void {
  const file = claimFile(dbFile);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, String(process.pid));
  const release = () => {
    try {
      if (fs.readFileSync(file, "utf8") === String(process.pid)) fs.rmSync(file, { force: true });
    } catch {
      // Already gone: nothing to release.
    }
  };
  // Whatever way the process exits (a shutdown past its deadline included), the claim goes with it.
  process.once("exit", release);
  return release;
}

/** The pid of a live process that claims the database, or null (a stale claim is ignored). */
export function liveClaimant(dbFile: string): number | null {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(claimFile(dbFile), "utf8").trim());
  } catch {
    return null;
  }
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else; still alive.
    return (error as NodeJS.ErrnoException).code === "EPERM" ? pid : null;
  }
}

/** A restore staged with `--at-next-start`: swapped in by the server before it opens the database. */
export function stagedRestoreFile(dbFile: string): string {
  return `${path.resolve(dbFile)}.restore`;
}

/**
 * Copies a checked backup over the database file (removing its WAL and shared-memory files, which
 * belong to the old contents). Only call when no process has the database open.
 */
export function restoreInto(backup: string, dbFile: string): void {
  if (!isIntact(backup)) throw new Error(`${backup} failed integrity_check; nothing restored`);
  const target = path.resolve(dbFile);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const temp = `${target}.restoring`;
  fs.copyFileSync(backup, temp);
  for (const suffix of ["-wal", "-shm"]) fs.rmSync(`${target}${suffix}`, { force: true });
  fs.renameSync(temp, target);
}

/** At start, before the database is opened: apply a staged restore if there is one. */
export function applyStagedRestore(dbFile: string): string | null {
  const staged = stagedRestoreFile(dbFile);
  if (!fs.existsSync(staged)) return null;
  restoreInto(staged, dbFile);
  fs.rmSync(staged, { force: true });
  return staged;
}
