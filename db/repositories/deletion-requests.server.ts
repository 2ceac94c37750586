import { getDb, type DB } from "../client.server";

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
