import { asSiteLeader } from "~db/site-locks.server";
import { getEnv } from "./env.server";

/**
 * A job inside the server: `task` runs after `firstMs`, then every `intervalMs`, never two runs at
 * once. A failure is logged as `[name] failed: …`. Timers are unref'd so they never keep the process
 * alive. On PostgreSQL each run is led by one process of the site: a process that finds the job's
 * lock taken by another skips that run (decision 367). With `LOG_JOB_RUNS=1` each run this process
 * leads is logged with its start and end, and each run skipped so (the scale-out test reads them).
 *
 * The returned function stops the job (shutdown, decision 294): no run starts after it, the run
 * under way sees its `signal` aborted (a job working in batches stops before its next one), and the
 * promise resolves once that run has ended, so the database closes after the job's last statement,
 * not under it.
 */
export function startPeriodic(
  name: string,
  log: (line: string) => void,
  { firstMs, intervalMs }: { firstMs: number; intervalMs: number },
  task: (signal: AbortSignal) => Promise<unknown>,
): () => Promise<void> {
  const stopping = new AbortController();
  let running: Promise<void> | null = null;
  const run = () => {
    if (stopping.signal.aborted || running) return;
    const logRuns = getEnv().LOG_JOB_RUNS;
    running = asSiteLeader(`job:${name}`, async () => {
      const started = new Date().toISOString();
      try {
        return await task(stopping.signal);
      } finally {
        // Before the lock goes: a run another process leads next starts after this end.
        if (logRuns) log(`[jobs] ${name} ran from ${started} to ${new Date().toISOString()}`);
      }
    })
      .then(
        (run) => {
          if (logRuns && !run.led) log(`[jobs] ${name} skipped: another process is running it`);
        },
        (error: unknown) => log(`[${name}] failed: ${error instanceof Error ? error.message : String(error)}`),
      )
      .finally(() => (running = null));
  };
  const first = setTimeout(run, firstMs);
  const every = setInterval(run, intervalMs);
  first.unref();
  every.unref();
  return async () => {
    stopping.abort();
    clearTimeout(first);
    clearInterval(every);
    await running;
  };
}
