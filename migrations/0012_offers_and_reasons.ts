import { sql, type Kysely } from "kysely";

// What a referral gives and how to claim it (per platform), why a code failed (per answer), and the
// monthly cap a code can be put on. `any`: a migration is frozen in time (see 0001).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

const OFFER_TEXTS = ["offer_referee", "offer_referrer", "offer_conditions", "offer_steps"] as const;
const LANGUAGE_SUFFIXES = ["", "_en", "_de", "_es"] as const;

export async function up(db: Db): Promise<void> {
  // One row per platform, written by the admin's offer form; French bare, other languages suffixed,
  // each falling back to French when empty (like platform descriptions).
  let offers = db.schema
    .createTable("platform_offers")
    .addColumn("platform_id", "integer", (c) => c.primaryKey().references("platforms.id").onDelete("cascade"));
  for (const text of OFFER_TEXTS) {
    for (const suffix of LANGUAGE_SUFFIXES) offers = offers.addColumn(`${text}${suffix}`, "text");
  }
  await offers
    // YYYY-MM-DD, the day the admin last checked the offer on the platform's own site.
    .addColumn("offer_checked_on", "text")
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  // Why a failed answer failed; NULL for "worked" and for answers given before reasons existed.
  await db.schema
    .alterTable("code_reports")
    .addColumn("reason", "text", (c) =>
      c.check(sql`reason IS NULL OR reason IN ('expired', 'limit-reached', 'wrong-region', 'conditions-not-met', 'other')`),
    )
    .execute();
  // "Last worked" per platform: the newest 'worked' answer is one index seek.
  await db.schema
    .createIndex("code_reports_platform_latest_idx")
    .on("code_reports")
    .columns(["platform_id", "outcome", "created_at"])
    .execute();

  // A code that hit its platform's monthly referral cap stays out of the draw until this instant
  // (the first day of the next month, UTC), then comes back by itself.
  await db.schema.alterTable("referral_codes").addColumn("capped_until", "text").execute();
  await db.schema
    .createIndex("referral_codes_capped_idx")
    .on("referral_codes")
    .column("capped_until")
    .where(sql.ref("capped_until"), "is not", null)
    .execute();
  // The draw's eligibility now reads the cap: the available-codes index (0011) carries it too, so
  // counting a platform's codes still reads the index alone.
  await availableIndex(db, ["platform_id", "is_permanent", "expires_at", "capped_until"]);
}

async function availableIndex(db: Db, columns: string[]) {
  await db.schema.dropIndex("referral_codes_available_idx").execute();
  await db.schema
    .createIndex("referral_codes_available_idx")
    .on("referral_codes")
    .columns(columns)
    .where(sql.ref("is_active"), "=", 1)
    .execute();
}

export async function down(db: Db): Promise<void> {
  await availableIndex(db, ["platform_id", "is_permanent", "expires_at"]);
  await db.schema.dropIndex("referral_codes_capped_idx").execute();
  await db.schema.alterTable("referral_codes").dropColumn("capped_until").execute();
  await db.schema.dropIndex("code_reports_platform_latest_idx").execute();
  await db.schema.alterTable("code_reports").dropColumn("reason").execute();
  await db.schema.dropTable("platform_offers").execute();
}
