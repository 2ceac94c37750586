import { sql, type SqlBool } from "kysely";
import { getDb, type DB } from "../client.server";
import { isUniqueViolation } from "../errors.server";
import { boundedCount, COUNT_CAP, keysetPage, type Keyset, type PageRequest } from "../keyset";
import type { NewPlatform, PlatformUpdate, RequestStatus } from "../schema";
import { expiryFrom, selectCodeWithPlatform } from "./codes.server";
import { SUGGESTION_ORDER } from "./suggestions.server";

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

const PLATFORM_ORDER: Keyset = {
  direction: "desc",
  keys: [
    { column: "created_at", field: "created_at", type: "text" },
    { column: "id", field: "id", type: "int" },
  ],
};

/** One page of platforms, newest first, and how many there are. */
export async function listAdminPlatforms(page: PageRequest, db: DB = getDb()) {
  const query = db.selectFrom("platforms");
  const [rows, total] = await Promise.all([
    keysetPage(query.selectAll(), PLATFORM_ORDER, page),
    boundedCount(db, query, COUNT_CAP),
  ]);
  return { ...rows, total };
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

export const CODE_STATES = ["active", "paused", "expired", "never-served"] as const;
export type CodeState = (typeof CODE_STATES)[number];

export interface CodeFilters {
  /** Part of the code, any case. */
  search?: string | null;
  state?: CodeState | null;
}

const CODE_ORDER: Keyset = {
  direction: "desc",
  keys: [
    { column: "referral_codes.created_at", field: "created_at", type: "text" },
    { column: "referral_codes.id", field: "id", type: "int" },
  ],
};

/** `%`, `_` and the escape character itself stand for themselves in a LIKE pattern. */
function likeContaining(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * One page of a platform's codes, newest first, with the filters; and how many match (counted up
 * to COUNT_CAP). The scan walks the (platform_id, created_at, id) index and stops after one page,
 * however many codes the platform has.
 */
export async function listAdminCodes(
  platformId: number,
  filters: CodeFilters,
  page: PageRequest,
  now = new Date(),
  db: DB = getDb(),
) {
  const nowIso = now.toISOString();
  let query = db.selectFrom("referral_codes").where("referral_codes.platform_id", "=", platformId);
  if (filters.search) {
    query = query.where(sql<SqlBool>`lower(referral_codes.code) like ${likeContaining(filters.search)} escape '\\'`);
  }
  switch (filters.state) {
    case "active":
      query = query
        .where("referral_codes.is_active", "=", 1)
        .where((eb) =>
          eb.or([
            eb("referral_codes.is_permanent", "=", 1),
            eb("referral_codes.expires_at", "is", null),
            eb("referral_codes.expires_at", ">", nowIso),
          ]),
        );
      break;
    case "paused":
      query = query.where("referral_codes.is_active", "=", 0);
      break;
    case "expired":
      query = query.where("referral_codes.is_permanent", "=", 0).where("referral_codes.expires_at", "<=", nowIso);
      break;
    case "never-served":
      query = query.where("referral_codes.times_served", "=", 0);
      break;
    default:
      break;
  }
  const [rows, total] = await Promise.all([
    keysetPage(query.selectAll("referral_codes"), CODE_ORDER, page),
    boundedCount(db, query, COUNT_CAP),
  ]);
  return { ...rows, total };
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
export async function setCodeActive(id: number, isActive: boolean, now = new Date(), db: DB = getDb()): Promise<boolean> {
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
export async function setCodePermanent(id: number, isPermanent: boolean, now = new Date(), db: DB = getDb()): Promise<boolean> {
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
export async function setCodeExpiry(id: number, days: number, now = new Date(), db: DB = getDb()): Promise<string | null> {
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

// ---------- platform suggestions ----------

/** One page in the public order (most votes, then newest), of one status or all; and how many match. */
export async function listAdminSuggestions(status: RequestStatus | null, page: PageRequest, db: DB = getDb()) {
  let query = db.selectFrom("platform_suggestions");
  if (status) query = query.where("status", "=", status);
  const [rows, total] = await Promise.all([
    keysetPage(query.selectAll(), SUGGESTION_ORDER, page),
    boundedCount(db, query, COUNT_CAP),
  ]);
  return { ...rows, total };
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
