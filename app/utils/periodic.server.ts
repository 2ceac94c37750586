import { asSiteLeader } from "~db/site-locks.server";

/**
 * A job inside the server: `task` runs after `firstMs`, then every `intervalMs`, never two runs at
 * once. A failure is logged as `[name] failed: …`. Timers are unref'd so they never keep the process
 * alive. On PostgreSQL each run is led by one process of the site: a process that finds the job's
 * lock taken by another skips that run (decision 367).
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
    running = asSiteLeader(`job:${name}`, () => task(stopping.signal))
      .then(
        () => {},
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
