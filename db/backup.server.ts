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

/** A backup cut short (a crash, a full disk) leaves this beside it: never kept. */
const PARTIAL_NAME = /^app-\d{8}T\d{6}Z\.db\.partial$/;

/**
 * Room the backups leave free on their volume, whatever BACKUP_KEEP says (decision 281): for the
 * database to grow, its WAL, and the next backup's file while it is written. A tenth of the volume,
 * at least 64 MB.
 */
const RESERVE_MIN_BYTES = 64 * 1024 * 1024;
const RESERVE_SHARE = 0.1;

export interface DiskSpace {
  /** Bytes this process may still write on the volume. */
  free: number;
  /** The volume's size in bytes. */
  total: number;
}

/** The volume's free and total bytes (statfs), or null where the system cannot say. */
async function diskSpaceOf(dir: string): Promise<DiskSpace | null> {
  try {
    const s = await fs.promises.statfs(dir);
    return { free: s.bavail * s.bsize, total: s.blocks * s.bsize };
  } catch {
    return null;
  }
}

export interface BackupOptions {
  dir: string;
  /** At most this many backups are kept (BACKUP_KEEP). */
  keep: number;
  /** And together they take at most this many bytes (BACKUP_MAX_MB). */
  maxBytes?: number;
  now?: Date;
  /** How the volume's space is read (tests give figures of their own). */
  space?: (dir: string) => Promise<DiskSpace | null>;
}

export type BackupResult =
  | { kind: "done"; file: string; bytes: number; ms: number; removed: string[] }
  /** No room for one more backup without taking what the database needs: the newest kept, none written. */
  | { kind: "skipped"; needed: number; room: number; kept: number; removed: string[] };

/**
 * One online backup of the open database through SQLite's backup API (consistent while writes go
 * on), checked with integrity_check. A backup that fails its check is deleted and reported as an
 * error, never kept as if it were good.
 *
 * What is kept is bounded twice: the newest `keep` backups, and only as many as fit in the room the
 * volume can spare (`maxBytes` at most, and always leaving the reserve above free). Hourly copies of
 * a growing database on the database's own small volume would otherwise fill it, and a full disk
 * turns every write into a 503 (decision 281). Old backups go first, before the new one is written;
 * where even one new backup does not fit, none is written and the newest old one stays.
 */
export async function backupDatabase(
  sqlite: SQLite.Database,
  { dir, keep, maxBytes, now = new Date(), space = diskSpaceOf }: BackupOptions,
): Promise<BackupResult> {
  fs.mkdirSync(dir, { recursive: true });
  for (const name of fs.readdirSync(dir)) if (PARTIAL_NAME.test(name)) fs.rmSync(path.join(dir, name), { force: true });

  // The backup API copies every page of the file.
  const needed =
    (sqlite.pragma("page_size", { simple: true }) as number) * (sqlite.pragma("page_count", { simple: true }) as number);
  const backups = fs
    .readdirSync(dir)
    .filter((name) => BACKUP_NAME.test(name))
    .sort()
    .map((name) => ({ name, bytes: fs.statSync(path.join(dir, name)).size }));
  let held = backups.reduce((sum, b) => sum + b.bytes, 0);
  const disk = await space(dir);
  const spare = disk ? held + disk.free - Math.max(RESERVE_MIN_BYTES, disk.total * RESERVE_SHARE) : Infinity;
  const room = Math.min(maxBytes ?? Infinity, spare);

  const fits = needed <= room;
  const removed: string[] = [];
  // Oldest first: down to keep - 1 and the room the new one leaves; without a new one, the newest stays.
  while (backups.length > (fits ? 0 : 1) && (backups.length > (fits ? keep - 1 : keep) || held > (fits ? room - needed : room))) {
    const oldest = backups.shift()!;
    fs.rmSync(path.join(dir, oldest.name), { force: true });
    held -= oldest.bytes;
    removed.push(oldest.name);
  }
  if (!fits) return { kind: "skipped", needed, room: Math.max(0, room), kept: backups.length, removed };

  const file = path.join(dir, `app-${stamp(now)}.db`);
  const partial = `${file}.partial`;
  const started = Date.now();
  try {
    await sqlite.backup(partial);
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  }
  if (!isIntact(partial)) {
    fs.rmSync(partial, { force: true });
    throw new Error(`backup ${file} failed integrity_check`);
  }
  fs.renameSync(partial, file);
  return { kind: "done", file, bytes: fs.statSync(file).size, ms: Date.now() - started, removed };
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
