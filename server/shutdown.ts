import type { Server } from "node:http";
import type express from "express";

/** How long requests in flight may take to finish after SIGTERM (Fly's kill_timeout is longer). */
const SHUTDOWN_GRACE_MS = 8_000;

/**
 * Keeps the open event streams (server-sent events never end by themselves) so that a shutdown can
 * end them at once, while ordinary requests in flight get up to SHUTDOWN_GRACE_MS to finish.
 */
export function trackEventStreams() {
  const streams = new Set<express.Response>();
  const middleware: express.RequestHandler = (req, res, next) => {
    if (req.method === "GET" && req.path.startsWith("/events/")) {
      streams.add(res);
      res.once("close", () => streams.delete(res));
    }
    next();
  };
  const endAll = () => {
    for (const res of streams) res.end();
    streams.clear();
  };
  return { middleware, endAll };
}

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
 * On SIGTERM/SIGINT: stop the background jobs, close the server gracefully (above), then close the
 * database and exit.
 */
export function closeGracefullyOnSignals(
  server: Server,
  endStreams: () => void,
  { stopJobs, closeDatabase, log }: { stopJobs: () => void; closeDatabase: () => Promise<void>; log: (line: string) => void },
): void {
  let stopping = false;
  async function shutdown(signal: string) {
    if (stopping) return;
    stopping = true;
    log(`${signal} received: closing`);
    stopJobs();
    await closeGracefully(server, endStreams);
    await closeDatabase();
    log("database closed, bye");
    process.exit(0);
  }
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}
