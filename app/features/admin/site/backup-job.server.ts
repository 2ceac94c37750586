import { backupDatabase } from "~db/backup.server";
import { getSqlite } from "~db/client.server";
import { startPeriodic } from "~/utils/periodic.server";

export interface BackupJobOptions {
  dir: string;
  keep: number;
  intervalMs: number;
}

/**
 * Online backups inside the server: one a minute after start (or after one interval when that is
 * shorter), then every interval. Timers are unref'd; the returned function stops them (shutdown).
 */
export function startBackupJob(log: (line: string) => void, { dir, keep, intervalMs }: BackupJobOptions): () => void {
  return startPeriodic("backup", log, { firstMs: Math.min(60_000, intervalMs), intervalMs }, async () => {
    const r = await backupDatabase(getSqlite(), dir, keep);
    log(`[backup] ${r.file} (${r.bytes} bytes, ${r.ms} ms, integrity ok, ${r.removed.length} old removed)`);
  });
}
