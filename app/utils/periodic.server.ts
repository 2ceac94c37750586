/**
 * A job inside the server: `task` runs after `firstMs`, then every `intervalMs`, never two runs at
 * once. A failure is logged as `[name] failed: …`. Timers are unref'd so they never keep the process
 * alive; the returned function stops them (shutdown).
 */
export function startPeriodic(
  name: string,
  log: (line: string) => void,
  { firstMs, intervalMs }: { firstMs: number; intervalMs: number },
  task: () => Promise<unknown>,
): () => void {
  let stopped = false;
  let running = false;
  const run = () => {
    if (stopped || running) return;
    running = true;
    task()
      .catch((error: unknown) => log(`[${name}] failed: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => (running = false));
  };
  const first = setTimeout(run, firstMs);
  const every = setInterval(run, intervalMs);
  first.unref();
  every.unref();
  return () => {
    stopped = true;
    clearTimeout(first);
    clearInterval(every);
  };
}
