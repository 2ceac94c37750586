import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Worker } from "node:worker_threads";
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

/** What the backups leave free on a volume of `total` bytes (decision 281). */
export const reserveOf = (total: number) => Math.max(RESERVE_MIN_BYTES, total * RESERVE_SHARE);

/** The volume's free and total bytes (statfs), or null where the system cannot say. */
export async function diskSpaceOf(dir: string): Promise<DiskSpace | null> {
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
  /** Aborted when the server stops: the copy's worker is ended and the partial file removed (decision 294). */
  signal?: AbortSignal;
}

export type BackupResult =
  | { kind: "done"; file: string; bytes: number; ms: number; removed: string[] }
  | { kind: "stopped"; removed: string[] }
  /** No room for one more backup without taking what the database needs: the newest kept, none written. */
  | { kind: "skipped"; needed: number; room: number; kept: number; removed: string[] };

/**
 * What a backup's worker thread runs (plain CommonJS, evaluated as is: the same in the server's
 * build, in tsx and in the tests). Its own read-only connection writes a compact copy of the live
 * database with `VACUUM INTO` (one read transaction: a consistent snapshot while the server keeps
 * writing; free pages inside the live file are not copied), makes it durable, and checks it with
 * `integrity_check`. Both take seconds on a large database (4 s for the check on the scale data
 * set's 606 MB file on this machine); on the server's thread they froze every page meanwhile.
 */
const COPY_AND_CHECK = `
const { parentPort, workerData } = require("node:worker_threads");
const fs = require("node:fs");
const SQLite = require(workerData.driver);
const live = new SQLite(workerData.source, { readonly: true, fileMustExist: true });
try {
  live.prepare("VACUUM INTO ?").run(workerData.target);
} finally {
  live.close();
}
const fd = fs.openSync(workerData.target, "r+");
try {
  fs.fsyncSync(fd);
} finally {
  fs.closeSync(fd);
}
const copy = new SQLite(workerData.target, { readonly: true, fileMustExist: true });
try {
  const rows = copy.pragma("integrity_check");
  parentPort.postMessage({ intact: rows.length === 1 && rows[0].integrity_check === "ok" });
} finally {
  copy.close();
}
`;

/**
 * Writes a compact, checked copy of the SQLite file `source` to `target` in a worker thread: the
 * server's event loop keeps serving meanwhile (decision 283). Resolves whether the copy passed
 * integrity_check; rejects when the copy could not be written (the caller removes `target`). An
 * aborted `signal` ends the worker at once and resolves null.
 */
export function copyAndCheck(source: string, target: string, signal?: AbortSignal): Promise<boolean | null> {
  const driver = createRequire(import.meta.url).resolve("better-sqlite3");
  return new Promise((resolve, reject) => {
    let answered = false;
    const worker = new Worker(COPY_AND_CHECK, {
      eval: true,
      workerData: { driver, source, target },
      // A few objects and SQLite's own page cache (outside V8's heap): a small heap is plenty.
      resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 },
    });
    worker.once("message", (m: { intact: boolean }) => {
      answered = true;
      resolve(m.intact);
    });
    worker.once("error", (error) => {
      answered = true;
      reject(error);
    });
    worker.once("exit", (code) => {
      signal?.removeEventListener("abort", stop);
      if (answered) return;
      if (signal?.aborted) resolve(null);
      else reject(new Error(`the backup's worker stopped (exit code ${code}) before it answered`));
    });
    const stop = () => void worker.terminate();
    if (signal?.aborted) stop();
    else signal?.addEventListener("abort", stop, { once: true });
  });
}

/**
 * One online backup of the open database: a compact copy written and checked with integrity_check
 * in a worker thread (copyAndCheck), consistent while writes go on. A backup that fails its check
 * is deleted and reported as an error, never kept as if it were good.
 *
 * What is kept is bounded twice: the newest `keep` backups, and only as many as fit in the room the
 * volume can spare (`maxBytes` at most, and always leaving the reserve above free). Hourly copies of
 * a growing database on the database's own small volume would otherwise fill it, and a full disk
 * turns every write into a 503 (decision 281). Old backups go first, before the new one is written;
 * where even one new backup does not fit, none is written and the newest old one stays.
 */
export async function backupDatabase(
  sqlite: SQLite.Database,
  { dir, keep, maxBytes, now = new Date(), space = diskSpaceOf, signal }: BackupOptions,
): Promise<BackupResult> {
  if (sqlite.memory) throw new Error("an in-memory database has no file to back up");
  fs.mkdirSync(dir, { recursive: true });
  for (const name of fs.readdirSync(dir)) if (PARTIAL_NAME.test(name)) fs.rmSync(path.join(dir, name), { force: true });

  // The copy holds the pages in use, not the free pages inside the live file (retention leaves many).
  const pages =
    (sqlite.pragma("page_count", { simple: true }) as number) - (sqlite.pragma("freelist_count", { simple: true }) as number);
  const needed = (sqlite.pragma("page_size", { simple: true }) as number) * pages;
  const backups = fs
    .readdirSync(dir)
    .filter((name) => BACKUP_NAME.test(name))
    .sort()
    .map((name) => ({ name, bytes: fs.statSync(path.join(dir, name)).size }));
  let held = backups.reduce((sum, b) => sum + b.bytes, 0);
  const disk = await space(dir);
  const spare = disk ? held + disk.free - reserveOf(disk.total) : Infinity;
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
  let intact: boolean | null;
  try {
    intact = await copyAndCheck(sqlite.name, partial, signal);
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  }
  if (intact === null) {
    fs.rmSync(partial, { force: true });
    return { kind: "stopped", removed };
  }
  if (!intact) {
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
