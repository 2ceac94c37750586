import { type ExpressionBuilder } from "kysely";
import { buildReferralUrl } from "../platform-links";
import { getDb, type DB } from "../client.server";
import { isUniqueViolation } from "../errors.server";
import type { Database } from "../schema";

/** A temporary code lives this many calendar months. */
const CODE_VALIDITY_MONTHS = 6;

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

/**
 * Active, and permanent or without expiry or expiring in the future, and not on a monthly cap (or
 * its cap is over: it comes back by itself). The flags are SQL literals,
 * not parameters: the draw indexes are partial (`WHERE is_active = 1`), and a parameter compared
 * there makes SQLite re-plan the prepared statement every time it is bound (decision 010).
 */
export function eligible(now: string) {
  return (eb: ExpressionBuilder<Database, "referral_codes">) =>
    eb.and([
      eb("referral_codes.is_active", "=", eb.lit(1)),
      eb.or([
        eb("referral_codes.is_permanent", "=", eb.lit(1)),
        eb("referral_codes.expires_at", "is", null),
        eb("referral_codes.expires_at", ">", now),
      ]),
      eb.or([eb("referral_codes.capped_until", "is", null), eb("referral_codes.capped_until", "<=", now)]),
    ]);
}

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

export async function findCode(platformId: number, code: string, db: DB = getDb()) {
  return db
    .selectFrom("referral_codes")
    .select(["id", "code"])
    .where("platform_id", "=", platformId)
    .where("code", "=", code)
    .executeTakeFirst();
}

/**
 * How many codes of its platform a draw would serve before this one (0: it is next), or null when
 * the code is not in the rotation (paused, deactivated, expired, platform inactive).
 */
export async function codesServedBefore(codeId: number, now = new Date(), db: DB = getDb()): Promise<number | null> {
  const at = now.toISOString();
  const code = await db
    .selectFrom("referral_codes")
    .innerJoin("platforms", "platforms.id", "referral_codes.platform_id")
    .select(["referral_codes.id", "referral_codes.platform_id", "times_served", "last_served_at", "referral_codes.created_at"])
    .where("referral_codes.id", "=", codeId)
    .where("platforms.is_active", "=", 1)
    .where(eligible(at))
    .executeTakeFirst();
  if (!code) return null;
  // Codes ahead in the fairness order: fewer serves; or as many and served earlier (never served
  // first); or tied on both and older; or tied on everything and a smaller id.
  const row = await db
    .selectFrom("referral_codes")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("platform_id", "=", code.platform_id)
    .where(eligible(at))
    .where((eb) => {
      const sameServes = eb("times_served", "=", code.times_served);
      const sameLast =
        code.last_served_at === null ? eb("last_served_at", "is", null) : eb("last_served_at", "=", code.last_served_at);
      const ahead = [
        eb("times_served", "<", code.times_served),
        eb.and([sameServes, sameLast, eb("created_at", "<", code.created_at)]),
        eb.and([sameServes, sameLast, eb("created_at", "=", code.created_at), eb("id", "<", code.id)]),
      ];
      if (code.last_served_at !== null) {
        ahead.push(
          eb.and([sameServes, eb.or([eb("last_served_at", "is", null), eb("last_served_at", "<", code.last_served_at)])]),
        );
      }
      return eb.or(ahead);
    })
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export type SubmitOutcome = { ok: true; id: number } | { ok: false; reason: "duplicate" };

/** A visitor's code: temporary, valid CODE_VALIDITY_MONTHS. A duplicate (same platform and code) writes nothing. */
export async function submitReferralCode(
  input: { platformId: number; code: string; referralUrl: string | null; ownerTokenHash?: string | null },
  now = new Date(),
  db: DB = getDb(),
): Promise<SubmitOutcome> {
  if (await findCode(input.platformId, input.code, db)) return { ok: false, reason: "duplicate" };
  try {
    const row = await db
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
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return { ok: true, id: row.id };
  } catch (error) {
    // Two identical submissions at once: the unique constraint decides; the second is a duplicate.
    if (isUniqueViolation(error)) return { ok: false, reason: "duplicate" };
    throw error;
  }
}
