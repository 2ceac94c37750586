import { sql, type SqlBool } from "kysely";
import { buildReferralUrl } from "../platform-links";
import { getDb, type DB } from "../client.server";
import { isUniqueViolation } from "../errors.server";
import { boundedCount, COUNT_CAP, keysetPage, type Keyset, type PageRequest } from "../keyset";

/** A temporary code lives this many calendar months. */
export const CODE_VALIDITY_MONTHS = 6;

/** The one rule for a temporary code's expiry, whoever adds it (a visitor, or an admin making it temporary). */
export function expiryFrom(now: Date): string {
  const expires = new Date(now.getTime());
  expires.setUTCMonth(expires.getUTCMonth() + CODE_VALIDITY_MONTHS);
  return expires.toISOString();
}

/**
 * A code joined to its platform (`c`, `p`), with the columns every screen about one code shows:
 * callers add their own columns and conditions.
 */
export function selectCodeWithPlatform(db: DB) {
  return db
    .selectFrom("referral_codes as c")
    .innerJoin("platforms as p", "p.id", "c.platform_id")
    .select(["c.id", "c.code", "c.referral_url", "c.is_active", "c.is_permanent", "c.expires_at"]);
}

/** Which codes are in the rotation: the rule lives in rotation.server.ts (issue 55). */
export { eligible } from "./rotation.server";
import { codeHistory, enterAtLevel, writeEntering } from "./rotation.server";

export interface DrawResult {
  requestId: number;
  /** The served code's row, null once it was deleted. */
  codeId: number | null;
  code: string;
  referralUrl: string | null;
  platformId: number;
  platformName: string;
  platformSlug: string;
  emoji: string;
  createdAt: string;
}

/** What a result page shows: the code as served (kept even if the code was deleted since). */
export async function getDrawResult(requestId: number, db: DB = getDb()): Promise<DrawResult | null> {
  const row = await db
    .selectFrom("random_requests")
    .innerJoin("platforms", "platforms.id", "random_requests.platform_id")
    .leftJoin("referral_codes", "referral_codes.id", "random_requests.served_code_id")
    .select([
      "random_requests.id",
      "random_requests.served_code",
      "random_requests.created_at",
      "random_requests.platform_id",
      "random_requests.served_code_id",
      "platforms.name",
      "platforms.slug",
      "platforms.emoji_icon",
      "platforms.referral_url_template",
      "referral_codes.referral_url",
    ])
    .where("random_requests.id", "=", requestId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    requestId: row.id,
    codeId: row.served_code_id,
    code: row.served_code,
    referralUrl: row.referral_url ?? buildReferralUrl(row.served_code, row.referral_url_template),
    platformId: row.platform_id,
    platformName: row.name,
    platformSlug: row.slug,
    emoji: row.emoji_icon,
    createdAt: row.created_at,
  };
}

/** A code without its punctuation: `ATK-RV1`, `ATK.RV1`, `ATK_RV1` and `ATKRV1` are one code (decision 317). */
function foldedCode(code: string): string {
  return code.replace(/[-_.]/g, "");
}

/** The same expression in SQL, as migration 0016 indexes it (referral_codes_code_key_idx). */
const foldedCodeSql = sql<string>`replace(replace(replace(code, '-', ''), '_', ''), '.', '')`;

/** The platform's code that is this one, punctuation aside (its stored spelling), if any. */
export async function findCode(platformId: number, code: string, db: DB = getDb()) {
  return db
    .selectFrom("referral_codes")
    .select(["id", "code"])
    .where("platform_id", "=", platformId)
    .where(foldedCodeSql, "=", foldedCode(code))
    .executeTakeFirst();
}

export type SubmitOutcome = { ok: true; id: number } | { ok: false; reason: "duplicate" };

/**
 * A visitor's code: temporary, valid CODE_VALIDITY_MONTHS. A duplicate (same platform and code,
 * punctuation aside) writes nothing. `codeKey` (rotation.server.ts `codeKey`) finds the history of
 * the same code deleted before: its counts come back. Then it enters the rotation at the level
 * (rule 4), in the same transaction.
 */
export async function submitReferralCode(
  input: {
    platformId: number;
    code: string;
    referralUrl: string | null;
    ownerTokenHash?: string | null;
    codeKey?: string | null;
    /** Keyed hash of the submitting network: its own "worked" answers never count (decision 315). */
    ownerNetworkHash?: string | null;
  },
  now = new Date(),
  db: DB = getDb(),
): Promise<SubmitOutcome> {
  if (await findCode(input.platformId, input.code, db)) return { ok: false, reason: "duplicate" };
  try {
    const id = await db.transaction().execute(async (trx) => {
      const history = input.codeKey ? await codeHistory(input.codeKey, trx) : undefined;
      const row = await trx
        .insertInto("referral_codes")
        .values({
          platform_id: input.platformId,
          code: input.code,
          referral_url: input.referralUrl,
          is_active: 1,
          is_permanent: 0,
          expires_at: expiryFrom(now),
          created_at: now.toISOString(),
          owner_token_hash: input.ownerTokenHash ?? null,
          code_key: input.codeKey ?? null,
          owner_network_hash: input.ownerNetworkHash ?? null,
          times_served: history?.times_served ?? 0,
          rotation_count: history?.rotation_count ?? 0,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await enterAtLevel(trx, row.id, now);
      return row.id;
    });
    return { ok: true, id };
  } catch (error) {
    // Two identical submissions at once: the unique constraint decides; the second is a duplicate.
    if (isUniqueViolation(error)) return { ok: false, reason: "duplicate" };
    throw error;
  }
}

// ---------- the admin's list and edits ----------

export class CodeTakenError extends Error {
  constructor() {
    super("code taken");
  }
}

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
  const result = await writeEntering(db, id, now, (trx) =>
    trx
      .updateTable("referral_codes")
      .set((eb) => ({
        is_active: isActive ? 1 : 0,
        paused_reason: null,
        paused_at: null,
        reports_reset_at: isActive ? now.toISOString() : eb.ref("reports_reset_at"),
      }))
      .where("id", "=", id)
      .executeTakeFirst(),
  );
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Permanent codes never expire. Back to temporary, a code keeps its expiry, or gets the expiry a
 * visitor's code gets (`expiryFrom`) when it had none (else it would silently stay everlasting).
 */
export async function setCodePermanent(id: number, isPermanent: boolean, now = new Date(), db: DB = getDb()): Promise<boolean> {
  const fallback = expiryFrom(now);
  const result = await writeEntering(db, id, now, (trx) =>
    trx
      .updateTable("referral_codes")
      .set((eb) => ({
        is_permanent: isPermanent ? 1 : 0,
        expires_at: isPermanent ? eb.ref("expires_at") : eb.fn.coalesce("expires_at", eb.val(fallback)),
      }))
      .where("id", "=", id)
      .executeTakeFirst(),
  );
  return Number(result.numUpdatedRows) > 0;
}

/** The new expiry: `days` from now. */
export async function setCodeExpiry(id: number, days: number, now = new Date(), db: DB = getDb()): Promise<string | null> {
  const expiresAt = new Date(now.getTime() + days * 24 * 60 * 60 * 1000).toISOString();
  const result = await writeEntering(db, id, now, (trx) =>
    trx.updateTable("referral_codes").set({ expires_at: expiresAt }).where("id", "=", id).executeTakeFirst(),
  );
  return Number(result.numUpdatedRows) > 0 ? expiresAt : null;
}

/**
 * An admin's edit of a code's text or link. `codeKey` is the new text's keyed hash (rotation rule 5):
 * deleted after the edit, the code is recognised by what it now reads when it is submitted again.
 */
export async function updateCode(
  id: number,
  edit: { code: string; referralUrl: string | null; codeKey: string },
  db: DB = getDb(),
): Promise<boolean> {
  try {
    const result = await db
      .updateTable("referral_codes")
      .set({ code: edit.code, referral_url: edit.referralUrl, code_key: edit.codeKey })
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
