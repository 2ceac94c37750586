import { backupDatabase } from "~db/backup.server";
import { getSqlite } from "~db/client.server";
import { startPeriodic } from "~/utils/periodic.server";

export interface BackupJobOptions {
  dir: string;
  keep: number;
  maxBytes?: number;
  intervalMs: number;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * Online backups inside the server: one a minute after start (or after one interval when that is
 * shorter), then every interval. Timers are unref'd; the returned function stops them (shutdown).
 */
export function startBackupJob(log: (line: string) => void, { dir, keep, maxBytes, intervalMs }: BackupJobOptions): () => void {
  return startPeriodic("backup", log, { firstMs: Math.min(60_000, intervalMs), intervalMs }, async () => {
    const r = await backupDatabase(getSqlite(), { dir, keep, maxBytes });
    if (r.kind === "done") {
      log(`[backup] ${r.file} (${r.bytes} bytes, ${r.ms} ms, integrity ok, ${r.removed.length} old removed)`);
      return;
    }
    log(
      `[backup] skipped: a backup needs ${mb(r.needed)} and the backups may take ${mb(r.room)} ` +
        `(BACKUP_MAX_MB, and a tenth of the volume, at least 64 MB, stays free for the database); ` +
        `${r.kept} kept, ${r.removed.length} old removed. Give the volume more room, or copy backups off it (decision 281).`,
    );
  });
}
