import type { RequestHandler } from "express";

export type Health = { ok: true } | { ok: false; reason: string };

/**
 * `/healthz`, answered first, from memory (decision 211): never a query, never queued behind page
 * renders. 503 with the reason while writes fail for want of space (or a failing disk), once the
 * database file was removed or replaced, and from the moment a shutdown begins.
 */
export function healthEndpoint(databaseHealth: () => Health): { middleware: RequestHandler; shuttingDown: () => void } {
  let stopping = false;
  const middleware: RequestHandler = (req, res, next) => {
    if (req.path !== "/healthz" || (req.method !== "GET" && req.method !== "HEAD")) return next();
    const health: Health = stopping ? { ok: false, reason: "shutting down" } : databaseHealth();
    res.status(health.ok ? 200 : 503).set({ "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" });
    res.end(health.ok ? "ok" : health.reason);
  };
  return { middleware, shuttingDown: () => (stopping = true) };
}
