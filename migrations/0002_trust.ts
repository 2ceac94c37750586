import { sql, type Kysely } from "kysely";
import { withId } from "./portable";

// The trust loop: visitors' answers to "did this code work?", why a code is paused, and the hash of
// its owner's private link. `any`: a migration is frozen in time (see 0001).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  // NULL: not paused (or deactivated by an admin); 'owner': paused from the private link; 'reports':
  // paused automatically after failing answers (only an admin brings it back).
  await db.schema
    .alterTable("referral_codes")
    .addColumn("paused_reason", "text", (c) => c.check(sql`paused_reason IS NULL OR paused_reason IN ('owner', 'reports')`))
    .execute();
  await db.schema.alterTable("referral_codes").addColumn("paused_at", "text").execute();
  // Answers before this instant no longer count towards an automatic pause (set when an admin restores).
  await db.schema.alterTable("referral_codes").addColumn("reports_reset_at", "text").execute();
  // SHA-256 (base64url) of the owner's private token; the token itself is never stored.
  await db.schema.alterTable("referral_codes").addColumn("owner_token_hash", "text").execute();
  await db.schema
    .createIndex("referral_codes_owner_token_idx")
    .on("referral_codes")
    .column("owner_token_hash")
    .unique()
    .where(sql.ref("owner_token_hash"), "is not", null)
    .execute();
  await db.schema
    .createIndex("referral_codes_paused_idx")
    .on("referral_codes")
    .columns(["paused_reason", "paused_at"])
    .where(sql.ref("paused_reason"), "is not", null)
    .execute();

  await db.schema
    .createTable("code_reports")
    .$call(withId(db))
    // One answer per draw: the unique draw row it answers.
    .addColumn("random_request_id", "integer", (c) => c.notNull().unique().references("random_requests.id").onDelete("cascade"))
    .addColumn("code_id", "integer", (c) => c.notNull().references("referral_codes.id").onDelete("cascade"))
    .addColumn("platform_id", "integer", (c) => c.notNull().references("platforms.id").onDelete("cascade"))
    .addColumn("outcome", "text", (c) => c.notNull().check(sql`outcome IN ('worked', 'failed')`))
    // Keyed hash of the answering address (an IPv6 address counts by its /64).
    .addColumn("ip_hash", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  // The pause rule (a code's last answers) and "last worked".
  await db.schema.createIndex("code_reports_code_idx").on("code_reports").columns(["code_id", "created_at", "id"]).execute();
  // The 90-day figure per platform.
  await db.schema.createIndex("code_reports_platform_idx").on("code_reports").columns(["platform_id", "created_at"]).execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable("code_reports").execute();
  await db.schema.dropIndex("referral_codes_paused_idx").execute();
  await db.schema.dropIndex("referral_codes_owner_token_idx").execute();
  for (const column of ["owner_token_hash", "reports_reset_at", "paused_at", "paused_reason"]) {
    await db.schema.alterTable("referral_codes").dropColumn(column).execute();
  }
}
