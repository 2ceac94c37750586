import { getDb, type DB } from "../client.server";
import { boundedCount, COUNT_CAP, keysetPage, type Keyset, type PageRequest } from "../keyset";
import type { DisplayMode } from "../schema";

/** Partnerships: the public list, and the admin's list, edits and order. */

export async function listActivePartnerships({ limit }: { limit?: number } = {}, db: DB = getDb()) {
  const query = db
    .selectFrom("partnerships")
    .select([
      "id",
      "name",
      "description",
      "description_en",
      "description_de",
      "description_es",
      "url",
      "logo_url",
      "display_mode",
    ])
    .where("is_active", "=", 1)
    .orderBy("display_order", "asc")
    .orderBy("id", "asc");
  return (limit === undefined ? query : query.limit(limit)).execute();
}

export interface PartnershipInput {
  name: string;
  url: string;
  logo_url: string | null;
  description: string | null;
  /** Translations of the description; empty ones fall back to the French `description`. */
  description_en?: string | null;
  description_de?: string | null;
  description_es?: string | null;
  display_mode: DisplayMode;
  is_active: 0 | 1;
}

const PARTNERSHIP_ORDER: Keyset = {
  direction: "asc",
  keys: [
    { column: "display_order", field: "display_order", type: "int" },
    { column: "id", field: "id", type: "int" },
  ],
};

/** One page of partnerships in their display order (admin); and how many there are. */
export async function listPartnershipsAdmin(page: PageRequest, db: DB = getDb()) {
  const query = db.selectFrom("partnerships");
  const [rows, total] = await Promise.all([
    keysetPage(query.selectAll(), PARTNERSHIP_ORDER, page),
    boundedCount(db, query, COUNT_CAP),
  ]);
  return { ...rows, total };
}

/** A new partnership goes last: its display_order is the current list length. */
export async function createPartnership(input: PartnershipInput, db: DB = getDb()): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const { n } = await trx
      .selectFrom("partnerships")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    const row = await trx
      .insertInto("partnerships")
      .values({ ...input, display_order: Number(n), created_at: new Date().toISOString() })
      .returning("id")
      .executeTakeFirstOrThrow();
    return row.id;
  });
}

/** False when no such partnership. */
export async function updatePartnership(id: number, input: PartnershipInput, db: DB = getDb()): Promise<boolean> {
  const result = await db.updateTable("partnerships").set(input).where("id", "=", id).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** One partnership (the one a confirmation step names). */
export async function getPartnership(id: number, db: DB = getDb()) {
  return db.selectFrom("partnerships").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function deletePartnership(id: number, db: DB = getDb()): Promise<boolean> {
  const result = await db.deleteFrom("partnerships").where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * Swaps a partnership with its neighbour, in one transaction. Orders are renumbered 0..n-1 on the
 * way, so rows that share a display_order (older data, deletions) still move by exactly one place.
 * Returns "missing" for an unknown id, "edge" when it is already first/last.
 */
export async function movePartnership(
  id: number,
  direction: "up" | "down",
  db: DB = getDb(),
): Promise<"moved" | "edge" | "missing"> {
  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom("partnerships")
      .select(["id", "display_order"])
      .orderBy("display_order", "asc")
      .orderBy("id", "asc")
      .execute();
    const index = rows.findIndex((r) => r.id === id);
    if (index < 0) return "missing";
    const other = direction === "up" ? index - 1 : index + 1;
    if (other < 0 || other >= rows.length) return "edge";
    const order = rows.map((r) => r.id);
    [order[index], order[other]] = [order[other]!, order[index]!];
    for (const [position, rowId] of order.entries()) {
      const current = rows.find((r) => r.id === rowId)!;
      if (current.display_order !== position) {
        await trx.updateTable("partnerships").set({ display_order: position }).where("id", "=", rowId).execute();
      }
    }
    return "moved";
  });
}
