import { sql, type Kysely } from "kysely";

// What strangers can no longer turn against sharers (issue 56, decisions 315-317). `any`: a
// migration is frozen in time (see 0001).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  // Each answer keeps the keyed hash of the network (/48, /24) that made the draw it answers, and
  // whether that draw or answer came from the code's own owner (such "worked" answers never count).
  await db.schema.alterTable("code_reports").addColumn("network_hash", "text").execute();
  await db.schema
    .alterTable("code_reports")
    .addColumn("from_owner", "integer", (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`from_owner IN (0, 1)`),
    )
    .execute();
  // One network's failures over the last days: the admin's alert, one index range.
  await db.schema
    .createIndex("code_reports_network_idx")
    .on("code_reports")
    .columns(["network_hash", "created_at"])
    .where(sql.ref("network_hash"), "is not", null)
    .execute();

  // The network the code was submitted from, and how often its owner put it back after a pause
  // for failing answers (once; after that, only the admin).
  await db.schema.alterTable("referral_codes").addColumn("owner_network_hash", "text").execute();
  await db.schema
    .alterTable("referral_codes")
    .addColumn("owner_restores", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  // Duplicates ignore punctuation (ATK-RV1, ATK.RV1, ATK_RV1 are one code): the look-up's expression.
  await sql`CREATE INDEX referral_codes_code_key_idx ON referral_codes (platform_id, (replace(replace(replace(code, '-', ''), '_', ''), '.', '')))`.execute(
    db,
  );

  // One board entry per subscriber (an IPv6 /48, an IPv4 address) and day.
  await db.schema.alterTable("game_scores").addColumn("network_hash", "text").execute();
  await db.schema
    .createIndex("game_scores_network_idx")
    .on("game_scores")
    .columns(["network_hash", "created_at"])
    .where(sql.ref("network_hash"), "is not", null)
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropIndex("game_scores_network_idx").execute();
  await db.schema.alterTable("game_scores").dropColumn("network_hash").execute();
  await db.schema.dropIndex("referral_codes_code_key_idx").execute();
  await db.schema.alterTable("referral_codes").dropColumn("owner_restores").execute();
  await db.schema.alterTable("referral_codes").dropColumn("owner_network_hash").execute();
  await db.schema.dropIndex("code_reports_network_idx").execute();
  await db.schema.alterTable("code_reports").dropColumn("from_owner").execute();
  await db.schema.alterTable("code_reports").dropColumn("network_hash").execute();
}
