import { startPeriodic } from "~/utils/periodic.server";
import { describeRetentionRun, runRetention } from "~db/repositories/retention.server";

const RETENTION_INTERVAL_MS = 60 * 60_000;
const RETENTION_FIRST_RUN_MS = 60_000;

/**
 * The retention of visitors' data (decision 321) inside the server: a minute after start, then
 * every hour, each table's rows past the period the privacy page states removed or emptied
 * (db/repositories/retention.server.ts). Always on: the page promises it.
 */
export function startRetentionJob(
  log: (line: string) => void,
  { intervalMs = RETENTION_INTERVAL_MS, firstRunMs = RETENTION_FIRST_RUN_MS } = {},
): () => Promise<void> {
  return startPeriodic("retention", log, { firstMs: firstRunMs, intervalMs }, async (signal) => {
    const summary = await runRetention({ signal });
    if (Object.values(summary).some((n) => n > 0)) log(`[retention] ${describeRetentionRun(summary)}`);
  });
}
