import fs from "node:fs";
import path from "node:path";
import { backupDatabase, diskSpaceOf, reserveOf, type DiskSpace } from "~db/backup.server";
import { getDialect, getSqlite } from "~db/client.server";
import { getEnv } from "~/utils/env.server";
import { startPeriodic } from "~/utils/periodic.server";

export interface BackupJobOptions {
  dir: string;
  keep: number;
  maxBytes?: number;
  intervalMs: number;
}

/** The job's last attempt in this process (the settings tab shows it beside the files on disk). */
type LastAttempt =
  | { at: string; outcome: "done" }
  | { at: string; outcome: "skipped"; neededMb: number; roomMb: number }
  | { at: string; outcome: "failed" };

let lastAttempt: LastAttempt | null = null;

const toMb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
const mb = (bytes: number) => `${toMb(bytes).toFixed(1)} MB`;

/**
 * Online backups inside the server: one a minute after start (or after one interval when that is
 * shorter), then every interval. Timers are unref'd; the returned function stops them, and a copy
 * under way (its worker ended, its partial file removed: the shutdown does not wait for it).
 */
export function startBackupJob(
  log: (line: string) => void,
  { dir, keep, maxBytes, intervalMs }: BackupJobOptions,
): () => Promise<void> {
  return startPeriodic("backup", log, { firstMs: Math.min(60_000, intervalMs), intervalMs }, async (signal) => {
    const at = new Date().toISOString();
    let r: Awaited<ReturnType<typeof backupDatabase>>;
    try {
      r = await backupDatabase(getSqlite(), { dir, keep, maxBytes, signal });
    } catch (error) {
      lastAttempt = { at, outcome: "failed" };
      throw error;
    }
    if (r.kind === "stopped") {
      log("[backup] stopped: the server is shutting down (the partial copy is removed)");
      return;
    }
    if (r.kind === "done") {
      lastAttempt = { at, outcome: "done" };
      log(`[backup] ${r.file} (${r.bytes} bytes, ${r.ms} ms, integrity ok, ${r.removed.length} old removed)`);
      return;
    }
    lastAttempt = { at, outcome: "skipped", neededMb: toMb(r.needed), roomMb: toMb(r.room) };
    log(
      `[backup] skipped: a backup needs ${mb(r.needed)} and the backups may take ${mb(r.room)} ` +
        `(BACKUP_MAX_MB, and a tenth of the volume, at least 64 MB, stays free for the database); ` +
        `${r.kept} kept, ${r.removed.length} old removed. Give the volume more room, or copy backups off it (decision 281).`,
    );
  });
}

export type BackupStatus =
  | { kind: "off"; reason: "no-dir" | "postgres" }
  | { kind: "on"; kept: number; newest: { at: string; sizeMb: number } | null; last: LastAttempt | null };

const BACKUP_FILE = /^app-(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z\.db$/;

/**
 * What the settings tab says about backups: off (no BACKUP_DIR, or PostgreSQL's are the provider's),
 * or how many are kept, the newest, and this process's last attempt. Reads one directory of at most
 * BACKUP_KEEP files.
 */
export function backupStatus(): BackupStatus {
  if (getDialect() === "postgres") return { kind: "off", reason: "postgres" };
  const dir = getEnv().BACKUP_DIR;
  if (!dir) return { kind: "off", reason: "no-dir" };
  let names: string[] = [];
  try {
    names = fs
      .readdirSync(dir)
      .filter((name) => BACKUP_FILE.test(name))
      .sort();
  } catch {
    // not made yet: no backup so far
  }
  const newestName = names.at(-1);
  let newest: { at: string; sizeMb: number } | null = null;
  if (newestName) {
    const [, y, mo, d, h, mi, s] = BACKUP_FILE.exec(newestName)!;
    let size = 0;
    try {
      size = fs.statSync(path.join(dir, newestName)).size;
    } catch {
      // removed meanwhile by the job's rotation
    }
    newest = { at: `${y}-${mo}-${d}T${h}:${mi}:${s}Z`, sizeMb: toMb(size) };
  }
  return { kind: "on", kept: names.length, newest, last: lastAttempt };
}

export type StorageStatus =
  | { kind: "off" }
  | {
      kind: "sqlite";
      /** The database file, and the room inside it that removed rows left (new rows reuse it). */
      databaseMb: number;
      freeInsideMb: number;
      /** The volume holding it; `low` once its free space is below what the backups keep free. */
      volume: { freeMb: number; totalMb: number; low: boolean } | null;
    };

/**
 * Where the database's space stands, for the settings tab (decision 287): the file, the room inside
 * it, and its volume's free space, with a warning before a full disk stops the writes. SQLite only:
 * PostgreSQL's storage is the provider's. Two pragmas and one statfs.
 */
export async function storageStatus(space: (dir: string) => Promise<DiskSpace | null> = diskSpaceOf): Promise<StorageStatus> {
  if (getDialect() === "postgres") return { kind: "off" };
  const sqlite = getSqlite();
  if (sqlite.memory) return { kind: "off" };
  const pageSize = sqlite.pragma("page_size", { simple: true }) as number;
  const pages = sqlite.pragma("page_count", { simple: true }) as number;
  const free = sqlite.pragma("freelist_count", { simple: true }) as number;
  const disk = await space(path.dirname(path.resolve(sqlite.name)));
  return {
    kind: "sqlite",
    databaseMb: toMb(pages * pageSize),
    freeInsideMb: toMb(free * pageSize),
    volume: disk && { freeMb: toMb(disk.free), totalMb: toMb(disk.total), low: disk.free < reserveOf(disk.total) },
  };
}
