import { getDb, type DB } from "../client.server";

/**
 * Removal requests (decision 324): a visitor asks for anything about them to be removed, with no
 * code needed; the admin reads them on the deletion requests tab and marks them done once acted on.
 */

/** Pending requests the admin's tab shows at once, oldest first (a queue is read from its head). */
const REMOVAL_LIST_CAP = 50;

export async function createRemovalRequest(details: string, now = new Date(), db: DB = getDb()): Promise<number> {
  const row = await db
    .insertInto("removal_requests")
    .values({ details, status: "pending", created_at: now.toISOString() })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The pending requests, oldest first, at most REMOVAL_LIST_CAP; and how many are pending in all. */
export async function listPendingRemovalRequests(db: DB = getDb()) {
  const [rows, count] = await Promise.all([
    db
      .selectFrom("removal_requests")
      .select(["id", "details", "created_at"])
      .where("status", "=", "pending")
      .orderBy("created_at")
      .orderBy("id")
      .limit(REMOVAL_LIST_CAP)
      .execute(),
    db
      .selectFrom("removal_requests")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("status", "=", "pending")
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, pending: Number(count.n) };
}

/** Marks a pending request done; false when it was not pending (already done, or unknown). */
export async function markRemovalRequestDone(id: number, now = new Date(), db: DB = getDb()): Promise<boolean> {
  const result = await db
    .updateTable("removal_requests")
    .set({ status: "done", resolved_at: now.toISOString() })
    .where("id", "=", id)
    .where("status", "=", "pending")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
