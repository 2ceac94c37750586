import { sql } from "kysely";
import { getDb, type DB } from "../client.server";
import { isUniqueViolation } from "../errors.server";
import type { NewPlatform, PlatformUpdate } from "../schema";
import { expiryFrom, selectCodeWithPlatform } from "./codes.server";

/**
 * The admin's reads and writes of the catalog: codes, platforms, deletion requests, suggestions
 * Every write answers how many rows it touched, so a route can tell an
 * unknown id (404) from a success without a second query.
 */

export class SlugTakenError extends Error {
  constructor() {
    super("slug taken");
  }
}
export class CodeTakenError extends Error {
  constructor() {
    super("code taken");
  }
}
/** The row exists no more, or is no longer in a state the action applies to. */
export class RowGoneError extends Error {
  constructor() {
    super("row gone");
  }
}

// ---------- platforms ----------

export async function listAdminPlatforms(db: DB = getDb()) {
  return db.selectFrom("platforms").selectAll().orderBy("created_at", "desc").orderBy("id", "desc").execute();
}

export async function listPlatformOptions(db: DB = getDb()) {
  return db.selectFrom("platforms").select(["id", "name", "slug", "is_active"]).orderBy("name", "asc").execute();
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

/** Codes, requests and deletion requests of the platform go with it (ON DELETE CASCADE). */
export async function deletePlatform(id: number, db: DB = getDb()) {
  const row = await db
    .deleteFrom("platforms")
    .where("id", "=", id)
    .returning(["custom_logo_light_url", "custom_logo_dark_url"])
    .executeTakeFirst();
  return row ?? null;
}

// ---------- codes ----------

export async function listAdminCodes(platformId: number, db: DB = getDb()) {
  return db
    .selectFrom("referral_codes")
    .selectAll()
    .where("platform_id", "=", platformId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
}

export async function getCodeWithPlatform(id: number, db: DB = getDb()) {
  return selectCodeWithPlatform(db)
    .select(["c.platform_id", "p.slug", "p.hosts", "p.url_rules", "p.referral_url_template", "p.code_pattern"])
    .where("c.id", "=", id)
    .executeTakeFirst();
}

/**
 * An admin's decision replaces any pause (owner's or after failing answers). Activating also starts
 * the automatic-pause count afresh: the answers so far were judged.
 */
export async function setCodeActive(id: number, isActive: boolean, db: DB = getDb(), now = new Date()): Promise<boolean> {
  const result = await db
    .updateTable("referral_codes")
    .set((eb) => ({
      is_active: isActive ? 1 : 0,
      paused_reason: null,
      paused_at: null,
      reports_reset_at: isActive ? now.toISOString() : eb.ref("reports_reset_at"),
    }))
    .where("id", "=", id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Permanent codes never expire. Back to temporary, a code keeps its expiry, or gets the expiry a
 * visitor's code gets (`expiryFrom`) when it had none (else it would silently stay everlasting).
 */
export async function setCodePermanent(id: number, isPermanent: boolean, db: DB = getDb(), now = new Date()): Promise<boolean> {
  const fallback = expiryFrom(now);
  const result = await db
    .updateTable("referral_codes")
    .set((eb) => ({
      is_permanent: isPermanent ? 1 : 0,
      expires_at: isPermanent ? eb.ref("expires_at") : eb.fn.coalesce("expires_at", eb.val(fallback)),
    }))
    .where("id", "=", id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The new expiry: `days` from now. */
export async function setCodeExpiry(id: number, days: number, db: DB = getDb(), now = new Date()): Promise<string | null> {
  const expiresAt = new Date(now.getTime() + days * 24 * 60 * 60 * 1000).toISOString();
  const result = await db.updateTable("referral_codes").set({ expires_at: expiresAt }).where("id", "=", id).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0 ? expiresAt : null;
}

export async function updateCode(id: number, code: string, referralUrl: string | null, db: DB = getDb()): Promise<boolean> {
  try {
    const result = await db
      .updateTable("referral_codes")
      .set({ code, referral_url: referralUrl })
      .where("id", "=", id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  } catch (error) {
    if (isUniqueViolation(error)) throw new CodeTakenError();
    throw error;
  }
}

export async function deleteCode(id: number, db: DB = getDb()): Promise<boolean> {
  const result = await db.deleteFrom("referral_codes").where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

// ---------- deletion requests ----------

export async function listDeletionRequests(db: DB = getDb()) {
  return db
    .selectFrom("deletion_requests as d")
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
    ])
    .orderBy("d.created_at", "desc")
    .orderBy("d.id", "desc")
    .execute();
}

/**
 * Approval, in one transaction: the code leaves its platform, then the request is marked approved.
 * Answers how many codes were removed; throws RowGoneError when the request is not pending.
 */
export async function approveDeletionRequest(id: number, db: DB = getDb(), now = new Date()): Promise<{ removedCodes: number }> {
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

export async function rejectDeletionRequest(id: number, db: DB = getDb(), now = new Date()): Promise<boolean> {
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

// ---------- platform suggestions ----------

/** The public order (most votes, then newest), but every status. */
export async function listAdminSuggestions(db: DB = getDb()) {
  return db
    .selectFrom("platform_suggestions")
    .selectAll()
    .orderBy("votes_count", "desc")
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
}

/**
 * Approval, in one transaction: the platform is created (inactive, to be finished by the admin),
 * then the suggestion is marked approved. A taken slug throws SlugTakenError, a suggestion no
 * longer pending RowGoneError; either way nothing is written.
 */
export async function approveSuggestionAsPlatform(
  suggestionId: number,
  values: Omit<NewPlatform, "created_at" | "is_active">,
  db: DB = getDb(),
) {
  return db.transaction().execute(async (trx) => {
    const pending = await trx
      .selectFrom("platform_suggestions")
      .select("id")
      .where("id", "=", suggestionId)
      .where("status", "=", "pending")
      .executeTakeFirst();
    if (!pending) throw new RowGoneError();
    const platform = await createPlatform({ ...values, is_active: 0 }, trx);
    const marked = await trx
      .updateTable("platform_suggestions")
      .set({ status: "approved" })
      .where("id", "=", suggestionId)
      .where("status", "=", "pending")
      .executeTakeFirst();
    if (Number(marked.numUpdatedRows) !== 1) throw new RowGoneError();
    return platform;
  });
}

export async function rejectSuggestion(id: number, db: DB = getDb()): Promise<boolean> {
  const result = await db
    .updateTable("platform_suggestions")
    .set({ status: "rejected" })
    .where("id", "=", id)
    .where("status", "=", "pending")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
