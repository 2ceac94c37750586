import { backupDatabase } from "~db/backup.server";
import { getSqlite } from "~db/client.server";

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
  let stopped = false;
  let running = false;
  const run = () => {
    if (stopped || running) return;
    running = true;
    backupDatabase(getSqlite(), dir, keep)
      .then((r) => log(`[backup] ${r.file} (${r.bytes} bytes, ${r.ms} ms, integrity ok, ${r.removed.length} old removed)`))
      .catch((error: unknown) => log(`[backup] failed: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => (running = false));
  };
  const first = setTimeout(run, Math.min(60_000, intervalMs));
  const every = setInterval(run, intervalMs);
  first.unref();
  every.unref();
  return () => {
    stopped = true;
    clearTimeout(first);
    clearInterval(every);
  };
}
