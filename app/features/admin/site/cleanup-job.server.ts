import { startPeriodic } from "~/utils/periodic.server";
import { deleteExpiredTemporaryCodesOnce, isAutoCleanupEnabled } from "~db/repositories/code-cleanup.server";

const CLEANUP_INTERVAL_MS = 60 * 60_000;
const CLEANUP_FIRST_RUN_MS = 2_000;

/**
 * One pass: nothing unless enable_auto_cleanup is 'true'; logs how many codes went. Null when it did
 * nothing (disabled, or another process sharing the PostgreSQL database is running its pass).
 */
export async function runAutoCleanup(
  log: (line: string) => void,
  now = new Date(),
  signal?: AbortSignal,
): Promise<number | null> {
  if (!(await isAutoCleanupEnabled())) return null;
  const removed = await deleteExpiredTemporaryCodesOnce(now, undefined, { signal });
  if (removed === null) {
    log("[cleanup] skipped: another process is running it");
    return null;
  }
  log(
    `[cleanup] removed ${removed} expired temporary code(s)${signal?.aborted ? " (stopped: the server is shutting down; the next run goes on)" : ""}`,
  );
  return removed;
}

/**
 * The periodic cleanup inside the server: once shortly after start, then every hour. Timers are
 * unref'd so they never keep the process alive; the returned function stops them and waits for
 * the pass under way to end its batch (shutdown).
 */
export function startCleanupJob(
  log: (line: string) => void,
  { intervalMs = CLEANUP_INTERVAL_MS, firstRunMs = CLEANUP_FIRST_RUN_MS } = {},
): () => Promise<void> {
  return startPeriodic("cleanup", log, { firstMs: firstRunMs, intervalMs }, (signal) => runAutoCleanup(log, new Date(), signal));
}
