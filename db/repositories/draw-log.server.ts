import { getDb, type DB } from "../client.server";
import { boundedCount, COUNT_CAP, keysetPage, type Keyset, type PageRequest } from "../keyset";

/** The draw log as the admin reads it (the draw writes it: draw.server.ts; figures: daily-figures.server.ts). */

const DRAW_ORDER: Keyset = {
  direction: "desc",
  keys: [
    { column: "r.created_at", field: "created_at", type: "text" },
    { column: "r.id", field: "id", type: "int" },
  ],
};

/** One page of the draw log, newest first, optionally for one platform and one day; and how many match. */
export async function listDraws(
  filters: { platformId: number | null; range: { from: string; to: string } | null },
  page: PageRequest,
  db: DB = getDb(),
) {
  let query = db.selectFrom("random_requests as r");
  if (filters.platformId !== null) query = query.where("r.platform_id", "=", filters.platformId);
  if (filters.range) query = query.where("r.created_at", ">=", filters.range.from).where("r.created_at", "<", filters.range.to);
  const listed = query
    .innerJoin("platforms as p", "p.id", "r.platform_id")
    .select(["r.id", "r.served_code", "r.served_code_id", "r.created_at", "p.name as platform_name", "p.slug as platform_slug"]);
  const [rows, total] = await Promise.all([keysetPage(listed, DRAW_ORDER, page), boundedCount(db, query, COUNT_CAP)]);
  return { ...rows, total };
}
