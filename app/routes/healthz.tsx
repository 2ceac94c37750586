import { sql } from "kysely";
import { getDb } from "~db/client.server";

/** 200 `ok` when the database answers, 503 otherwise. */
export async function loader() {
  try {
    await sql`select 1`.execute(getDb());
    return new Response("ok", { headers: { "Content-Type": "text/plain", "Cache-Control": "no-store" } });
  } catch (error) {
    console.error("[healthz] database check failed", error);
    return new Response("database unavailable", {
      status: 503,
      headers: { "Content-Type": "text/plain", "Cache-Control": "no-store" },
    });
  }
}
