import { sql } from "kysely";
import { getDb, type DB } from "../client.server";
import { isUniqueViolation } from "../errors.server";
import { boundedCount, COUNT_CAP, keysetPage, type Keyset, type PageRequest } from "../keyset";
import type { NewPlatform, Platform, PlatformUpdate } from "../schema";

/**
 * Platforms: the public lists and reads, the options of a select, and the admin's pages and writes.
 * Every write answers whether it touched a row, so a route can tell an unknown id (404) from a
 * success without a second query.
 */

export class SlugTakenError extends Error {
  constructor() {
    super("slug taken");
  }
}

/**
 * Active platforms, in their display order, all columns. `shownOn` keeps those the admin chose to
 * show on the home page or on the partnerships page.
 */
export async function listPlatforms(
  { shownOn, limit }: { shownOn?: "homepage" | "partnerships"; limit?: number } = {},
  db: DB = getDb(),
) {
  let query = db.selectFrom("platforms").selectAll().where("is_active", "=", 1);
  if (shownOn === "homepage") query = query.where("show_in_homepage", "=", 1);
  if (shownOn === "partnerships") query = query.where("show_in_partnerships", "=", 1);
  query = query.orderBy("display_order", "asc").orderBy("name", "asc");
  return (limit === undefined ? query : query.limit(limit)).execute();
}

/** Platforms for a select or a filter (id, name, slug, is_active), by name; `activeOnly` for a visitor's choice. */
export async function listPlatformOptions({ activeOnly = false }: { activeOnly?: boolean } = {}, db: DB = getDb()) {
  return (
    db
      .selectFrom("platforms")
      .select(["id", "name", "slug", "is_active"])
      .$if(activeOnly, (qb) => qb.where("is_active", "=", 1))
      // Case folded: "iGraal" among the I's, not after "Trade Republic" (same SQL on both dialects).
      .orderBy(sql`lower(name)`)
      .orderBy("name", "asc")
      .execute()
  );
}

export async function getPlatformBySlug(slug: string, db: DB = getDb()): Promise<Platform | undefined> {
  return db.selectFrom("platforms").selectAll().where("slug", "=", slug).executeTakeFirst();
}

export async function getActivePlatformBySlug(slug: string, db: DB = getDb()): Promise<Platform | undefined> {
  return db.selectFrom("platforms").selectAll().where("slug", "=", slug).where("is_active", "=", 1).executeTakeFirst();
}

/** The description in the visitor's language ("fr", "en", "de", "es"), falling back to French. */
export function platformDescription(
  platform: Pick<Platform, "description" | "description_en" | "description_de" | "description_es">,
  language: string,
): string {
  const localized =
    language === "en"
      ? platform.description_en
      : language === "de"
        ? platform.description_de
        : language === "es"
          ? platform.description_es
          : null;
  return localized || platform.description;
}

const PLATFORM_ORDER: Keyset = {
  direction: "desc",
  keys: [
    { column: "created_at", field: "created_at", type: "text" },
    { column: "id", field: "id", type: "int" },
  ],
};

/** One page of platforms, newest first, and how many there are. */
export async function listAdminPlatforms(page: PageRequest, db: DB = getDb()) {
  // A platform being deleted is listed apart (listPlatformDeletions): nothing of it can be edited.
  const query = db.selectFrom("platforms").where("deleting_since", "is", null);
  const [rows, total] = await Promise.all([
    keysetPage(query.selectAll(), PLATFORM_ORDER, page),
    boundedCount(db, query, COUNT_CAP),
  ]);
  return { ...rows, total };
}

export async function getPlatformById(id: number, db: DB = getDb()) {
  return db.selectFrom("platforms").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function isSlugTaken(slug: string, exceptId: number | null = null, db: DB = getDb()): Promise<boolean> {
  let query = db.selectFrom("platforms").select("id").where("slug", "=", slug);
  if (exceptId !== null) query = query.where("id", "!=", exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function createPlatform(values: Omit<NewPlatform, "created_at">, db: DB = getDb()) {
  try {
    return await db
      .insertInto("platforms")
      .values({ ...values, created_at: new Date().toISOString() })
      .returning(["id", "slug"])
      .executeTakeFirstOrThrow();
  } catch (error) {
    if (isUniqueViolation(error)) throw new SlugTakenError();
    throw error;
  }
}

export async function togglePlatformActive(id: number, db: DB = getDb()): Promise<{ isActive: boolean } | null> {
  const row = await db
    .updateTable("platforms")
    .set({ is_active: sql<number>`1 - is_active` })
    .where("id", "=", id)
    .returning("is_active")
    .executeTakeFirst();
  return row ? { isActive: row.is_active === 1 } : null;
}

export async function updatePlatform(id: number, values: PlatformUpdate, db: DB = getDb()): Promise<boolean> {
  try {
    const result = await db.updateTable("platforms").set(values).where("id", "=", id).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  } catch (error) {
    if (isUniqueViolation(error)) throw new SlugTakenError();
    throw error;
  }
}

export type LogoVariant = "light" | "dark";

/** Sets (or clears) one logo; answers the previous URL so the caller can remove the old file. */
export async function setPlatformLogo(id: number, variant: LogoVariant, url: string | null, db: DB = getDb()) {
  const column = variant === "light" ? "custom_logo_light_url" : "custom_logo_dark_url";
  return db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom("platforms").select(column).where("id", "=", id).executeTakeFirst();
    if (!before) return null;
    await trx
      .updateTable("platforms")
      .set({ [column]: url })
      .where("id", "=", id)
      .execute();
    return { previous: (before as Record<string, string | null>)[column] ?? null };
  });
}

/**
 * Rows removed per transaction when a platform goes: about 10-40 ms a batch on the scale data set's
 * file on this machine (a draw takes its answer with it; a code its answers' totals).
 */
const PLATFORM_REMOVAL_BATCH = { random_requests: 2000, code_reports: 2000, referral_codes: 300 } as const;
type PlatformRows = keyof typeof PLATFORM_REMOVAL_BATCH;

/** One batch of a platform's rows in `table`; how many went. */
async function removePlatformRows(db: DB, table: PlatformRows, platformId: number): Promise<number> {
  const result = await db
    .deleteFrom(table)
    .where("id", "in", (eb) =>
      eb.selectFrom(table).select("id").where("platform_id", "=", platformId).limit(PLATFORM_REMOVAL_BATCH[table]),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Removes a platform and all it holds (decision 284). A popular platform holds hundreds of thousands
 * of rows: one cascading statement held the only connection, and on SQLite the event loop, for
 * 2.2 s on the scale data set (48,783 codes, 102,521 draws), every page waiting meanwhile. So:
 *
 * 1. `startPlatformDeletion`: one statement deactivates it and marks it `deleting_since` (decision
 *    292): visitors no longer see it, no draw serves it, no code is shared to it, the admin's list
 *    shows it apart, and the server finishes it after a restart;
 * 2. `finishPlatformDeletion`: its draws (their answers with them), answers and codes go in batches,
 *    one transaction each, with a short pause between them so pages and draws keep their turn;
 * 3. then the row itself, with what is left (deletion requests, daily figures, its offer: a few
 *    hundred rows at most) by ON DELETE CASCADE, answering its logos so the caller removes them.
 *
 * `deletePlatform` does both at once (scripts and tests). Null when there is no such platform.
 */
export async function deletePlatform(id: number, db: DB = getDb(), { pauseMs = 5 }: { pauseMs?: number } = {}) {
  if (!(await startPlatformDeletion(id, new Date(), db))) return null;
  return finishPlatformDeletion(id, db, { pauseMs });
}

/** Marks a platform as being deleted and takes it from visitors; false when there is no such platform. */
export async function startPlatformDeletion(id: number, now: Date, db: DB = getDb()): Promise<boolean> {
  const found = await db
    .updateTable("platforms")
    .set((eb) => ({ is_active: 0, deleting_since: eb.fn.coalesce("deleting_since", eb.val(now.toISOString())) }))
    .where("id", "=", id)
    .executeTakeFirst();
  return Number(found.numUpdatedRows) > 0;
}

/**
 * Removes the rows of a platform marked by `startPlatformDeletion`, then the platform; answers its
 * logos, or null when it was gone already or `signal` (the server stopping, decision 294) ended it
 * between two batches. Stopped half way (a restart, a full disk), it can run again from where it
 * stopped.
 */
export async function finishPlatformDeletion(
  id: number,
  db: DB = getDb(),
  { pauseMs = 5, signal }: { pauseMs?: number; signal?: AbortSignal } = {},
) {
  for (const table of Object.keys(PLATFORM_REMOVAL_BATCH) as PlatformRows[]) {
    while ((await removePlatformRows(db, table, id)) === PLATFORM_REMOVAL_BATCH[table]) {
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
      if (signal?.aborted) return null;
    }
  }
  if (signal?.aborted) return null;
  const row = await db
    .deleteFrom("platforms")
    .where("id", "=", id)
    .where("deleting_since", "is not", null)
    .returning(["custom_logo_light_url", "custom_logo_dark_url"])
    .executeTakeFirst();
  return row ?? null;
}

/** Platforms whose deletion has begun and not ended, oldest first (a handful; capped). */
export async function listPlatformDeletions(db: DB = getDb(), limit = 20) {
  return db
    .selectFrom("platforms")
    .select(["id", "name", "deleting_since"])
    .where("deleting_since", "is not", null)
    .orderBy("deleting_since")
    .orderBy("id")
    .limit(limit)
    .execute();
}
