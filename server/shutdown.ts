import type { Server } from "node:http";
import closeWithGrace from "close-with-grace";

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
function closeServer(server: Server, endStreams: () => void, graceMs = SHUTDOWN_GRACE_MS): Promise<void> {
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
 * close-with-grace runs this once, on SIGTERM, SIGINT (and the other termination signals) or an
 * uncaught error: stop the background jobs, close the server (above), wait for the jobs' runs under
 * way to end their batch, then close the database; it exits when this resolves (1 after an error,
 * or past the deadline; a second signal exits at once). Without the wait for the jobs, a job between
 * two batches sent its next statement to a closed database (decision 294).
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
  const message = (error: unknown) => (error instanceof Error ? error.message : String(error));
  closeWithGrace(
    {
      delay: SHUTDOWN_DEADLINE_MS,
      logger: { error: (error: unknown) => log(`shutdown: ${message(error)}`) },
      onTimeout: (delay) => log(`shutdown still not done after ${delay} ms: exiting now`),
      onSecondSignal: (signal) => log(`${signal} received again: exiting now`),
    },
    async ({ signal, err }) => {
      onStart();
      if (err) console.error(err);
      log(signal ? `${signal} received: closing` : `uncaught error (${message(err)}): closing`);
      const jobsStopped = stopJobs().catch((error: unknown) => log(`stopping the jobs failed (${message(error)})`));
      await closeServer(server, endStreams);
      await jobsStopped;
      try {
        await closeDatabase();
        log("database closed, bye");
      } catch (error) {
        log(`closing the database failed (${message(error)}): exiting anyway`);
      }
    },
  );
}
