import { startPeriodic } from "~/utils/periodic.server";
import { type HistoryRunSummary, runHistoryJob } from "~db/repositories/history.server";

const HISTORY_INTERVAL_MS = 60 * 60_000;
const HISTORY_FIRST_RUN_MS = 5 * 60_000;

/** One line an operator can read in the log. */
export function describeHistoryRun(s: HistoryRunSummary): string {
  return (
    `rolled up ${s.daysRolledUp} day(s); removed ${s.draws} draw(s), ${s.answers} answer(s), ${s.scores} score(s), ` +
    `${s.conversations} conversation(s), ${s.votes} vote(s), ${s.sessions} expired session(s); cleared ${s.caps} ended cap(s)${s.skipped ? " (stopped: another process is running it)" : ""}${s.interrupted ? " (stopped: the server is shutting down; the next run goes on)" : ""}`
  );
}

/**
 * The draw log's roll-up and the retention of old rows (decision 192), inside the server: a few
 * minutes after start, then every hour. Always on: what it removes is counted first. Small
 * transactions with pauses between them, so draws keep their turn.
 */
export function startHistoryJob(
  log: (line: string) => void,
  { intervalMs = HISTORY_INTERVAL_MS, firstRunMs = HISTORY_FIRST_RUN_MS } = {},
): () => Promise<void> {
  return startPeriodic("history", log, { firstMs: firstRunMs, intervalMs }, async (signal) => {
    const summary = await runHistoryJob({ signal });
    const worked =
      summary.daysRolledUp +
      summary.draws +
      summary.answers +
      summary.scores +
      summary.conversations +
      summary.votes +
      summary.sessions +
      summary.caps;
    if (worked > 0 || summary.skipped || summary.interrupted) log(`[history] ${describeHistoryRun(summary)}`);
  });
}
