import { databaseHealth } from "~db/availability.server";
import { withDatabaseNet } from "~/utils/failures.server";

/**
 * The server answers /healthz itself, before any page (server/health.ts, decision 211); this route
 * gives the same answer from memory should a request reach Remix.
 */
export const loader = withDatabaseNet(function loader() {
  const health = databaseHealth();
  return new Response(health.ok ? "ok" : health.reason, {
    status: health.ok ? 200 : 503,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
});
