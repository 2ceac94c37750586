import { getDb, type DB } from "../client.server";
import { RowGoneError } from "../errors.server";
import { boundedCount, COUNT_CAP, keysetPage, type Keyset, type PageRequest } from "../keyset";
import type { RequestStatus } from "../schema";

/** Deletion requests: a visitor's request, and the admin's list and decisions. */

/** A visitor asks the admin to remove a code already in the database (the duplicate flow). */
export async function createDeletionRequest(
  input: { platformId: number; code: string; reason: string | null },
  now = new Date(),
  db: DB = getDb(),
): Promise<number> {
  const row = await db
    .insertInto("deletion_requests")
    .values({
      platform_id: input.platformId,
      code: input.code,
      reason: input.reason,
      status: "pending",
      created_at: now.toISOString(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface DeletionFilters {
  status?: RequestStatus | null;
  platformId?: number | null;
  /** Requests made within [from, to) (ISO instants). */
  range?: { from: string; to: string } | null;
}

const DELETION_ORDER: Keyset = {
  direction: "desc",
  keys: [
    { column: "d.created_at", field: "created_at", type: "text" },
    { column: "d.id", field: "id", type: "int" },
  ],
};

/** One page of deletion requests, newest first, with the filters; and how many match. */
export async function listDeletionRequests(filters: DeletionFilters, page: PageRequest, db: DB = getDb()) {
  let query = db.selectFrom("deletion_requests as d");
  if (filters.status) query = query.where("d.status", "=", filters.status);
  if (filters.platformId) query = query.where("d.platform_id", "=", filters.platformId);
  if (filters.range) query = query.where("d.created_at", ">=", filters.range.from).where("d.created_at", "<", filters.range.to);
  const listed = query
    .innerJoin("platforms as p", "p.id", "d.platform_id")
    .select([
      "d.id",
      "d.code",
      "d.reason",
      "d.status",
      "d.created_at",
      "d.resolved_at",
      "p.name as platform_name",
      "p.slug as platform_slug",
    ]);
  const [rows, total] = await Promise.all([keysetPage(listed, DELETION_ORDER, page), boundedCount(db, query, COUNT_CAP)]);
  return { ...rows, total };
}

/** One deletion request (the one a confirmation step names). */
export async function getDeletionRequest(id: number, db: DB = getDb()) {
  return db.selectFrom("deletion_requests").select(["id", "code", "status"]).where("id", "=", id).executeTakeFirst();
}

/**
 * Approval, in one transaction: the code leaves its platform, then the request is marked approved.
 * Answers how many codes were removed; throws RowGoneError when the request is not pending.
 */
export async function approveDeletionRequest(id: number, now = new Date(), db: DB = getDb()): Promise<{ removedCodes: number }> {
  return db.transaction().execute(async (trx) => {
    const request = await trx
      .selectFrom("deletion_requests")
      .select(["code", "platform_id"])
      .where("id", "=", id)
      .where("status", "=", "pending")
      .executeTakeFirst();
    if (!request) throw new RowGoneError();
    const removed = await trx
      .deleteFrom("referral_codes")
      .where("platform_id", "=", request.platform_id)
      .where("code", "=", request.code)
      .executeTakeFirst();
    const marked = await trx
      .updateTable("deletion_requests")
      .set({ status: "approved", resolved_at: now.toISOString() })
      .where("id", "=", id)
      .where("status", "=", "pending")
      .executeTakeFirst();
    if (Number(marked.numUpdatedRows) !== 1) throw new RowGoneError();
    return { removedCodes: Number(removed.numDeletedRows) };
  });
}

export async function rejectDeletionRequest(id: number, now = new Date(), db: DB = getDb()): Promise<boolean> {
  const result = await db
    .updateTable("deletion_requests")
    .set({ status: "rejected", resolved_at: now.toISOString() })
    .where("id", "=", id)
    .where("status", "=", "pending")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Only processed requests leave the history; a pending one must be decided first. */
export async function deleteProcessedDeletionRequest(id: number, db: DB = getDb()): Promise<boolean> {
  const result = await db
    .deleteFrom("deletion_requests")
    .where("id", "=", id)
    .where("status", "!=", "pending")
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
