import type { Server } from "node:http";

/** How long requests in flight may take to finish after SIGTERM. */
const SHUTDOWN_GRACE_MS = 6_000;
/**
 * The whole shutdown, database included, ends within this (fly.toml's kill_timeout is 12 s). The
 * server never waits synchronously (SQLite's busy wait is off, decision 210), so this timer fires on time.
 */
const SHUTDOWN_DEADLINE_MS = 7_500;

/**
 * Stops accepting, ends event streams, lets requests in flight finish (connections close once their
 * response is sent), and cuts whatever is left after the grace period. Resolves when the server is closed.
 */
function closeGracefully(server: Server, endStreams: () => void, graceMs = SHUTDOWN_GRACE_MS): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  endStreams();
  // A keep-alive connection whose request finishes while closing becomes idle: close it then.
  server.closeIdleConnections();
  const sweep = setInterval(() => server.closeIdleConnections(), 100);
  const force = setTimeout(() => server.closeAllConnections(), graceMs);
  force.unref();
  return closed.finally(() => {
    clearInterval(sweep);
    clearTimeout(force);
  });
}

/**
 * On SIGTERM/SIGINT: stop the background jobs, close the server gracefully (above), wait for the
 * jobs' runs under way to end their batch, then close the database and exit. Without that wait a
 * job between two batches (the hourly history job runs for seconds, a platform's deletion for
 * minutes) sent its next statement to a closed database: a "failed" line in the log at every
 * deploy that fell during one, and on PostgreSQL a pool ended under it (decision 294).
 */
export function closeGracefullyOnSignals(
  server: Server,
  endStreams: () => void,
  {
    stopJobs,
    closeDatabase,
    log,
    onStart = () => {},
  }: { stopJobs: () => Promise<void>; closeDatabase: () => Promise<void>; log: (line: string) => void; onStart?: () => void },
): void {
  let stopping = false;
  async function shutdown(signal: string) {
    if (stopping) return;
    stopping = true;
    onStart();
    log(`${signal} received: closing`);
    const deadline = setTimeout(() => {
      log(`shutdown still not done after ${SHUTDOWN_DEADLINE_MS} ms: exiting now`);
      process.exit(0);
    }, SHUTDOWN_DEADLINE_MS);
    const jobsStopped = stopJobs().catch((error: unknown) =>
      log(`stopping the jobs failed (${error instanceof Error ? error.message : String(error)})`),
    );
    await closeGracefully(server, endStreams);
    await jobsStopped;
    try {
      await closeDatabase();
      log("database closed, bye");
    } catch (error) {
      log(`closing the database failed (${error instanceof Error ? error.message : String(error)}): exiting anyway`);
    }
    clearTimeout(deadline);
    process.exit(0);
  }
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}
