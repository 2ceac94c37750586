import type { RequestHandler } from "express";

export type Health = { ok: true } | { ok: false; reason: string };

/** The routing check's path: whether this process serves at all (decision 282). */
const LIVE_PATH = "/healthz/live";

/**
 * `/healthz`, answered first, from memory (decision 211): never a query, never queued behind page
 * renders. 503 with the reason while writes fail for want of space (or a failing disk), once the
 * database file was removed or replaced, and from the moment a shutdown begins: what the operator's
 * monitoring reads.
 *
 * `/healthz/live` is what Fly's proxy routes by (decision 282): 503 only from the moment a shutdown
 * begins. A full disk stops writes, not pages: a machine the proxy stopped routing to would stop the
 * pages too, and with one machine there is nowhere else to send them.
 */
export function healthEndpoint(databaseHealth: () => Health): { middleware: RequestHandler; shuttingDown: () => void } {
  let stopping = false;
  const middleware: RequestHandler = (req, res, next) => {
    if ((req.path !== "/healthz" && req.path !== LIVE_PATH) || (req.method !== "GET" && req.method !== "HEAD")) return next();
    const health: Health = stopping
      ? { ok: false, reason: "shutting down" }
      : req.path === LIVE_PATH
        ? { ok: true }
        : databaseHealth();
    res.status(health.ok ? 200 : 503).set({ "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" });
    res.end(health.ok ? "ok" : health.reason);
  };
  return { middleware, shuttingDown: () => (stopping = true) };
}
