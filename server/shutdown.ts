import type { Server } from "node:http";

/**
 * On SIGTERM/SIGINT: stop the background jobs, stop accepting, give open requests (event streams)
 * a moment, then close the database and exit.
 */
export function closeGracefullyOnSignals(
  server: Server,
  { stopJobs, closeDatabase, log }: { stopJobs: () => void; closeDatabase: () => Promise<void>; log: (line: string) => void },
): void {
  let stopping = false;
  async function shutdown(signal: string) {
    if (stopping) return;
    stopping = true;
    log(`${signal} received: closing`);
    stopJobs();
    server.close();
    server.closeIdleConnections?.();
    // Long-lived requests (event streams) get a moment, then are cut.
    const force = setTimeout(() => server.closeAllConnections?.(), 3_000);
    force.unref();
    await new Promise<void>((resolve) => server.once("close", () => resolve()));
    await closeDatabase();
    log("database closed, bye");
    process.exit(0);
  }
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}
