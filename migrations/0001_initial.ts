import { sql, type Kysely } from "kysely";
import { withId } from "./portable";

// Portable DDL through Kysely's schema builder; CHECKs are plain SQL that SQLite and PostgreSQL share.
// `any`: a migration is frozen in time and must not depend on today's schema types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

const flag = (name: string) => sql`CHECK (${sql.ref(name)} IN (0, 1))`;

export async function up(db: Db): Promise<void> {
  await db.schema
    .createTable("platforms")
    .$call(withId(db))
    .addColumn("name", "text", (c) => c.notNull().check(sql`length(name) BETWEEN 1 AND 100`))
    .addColumn("slug", "text", (c) =>
      c
        .notNull()
        .unique()
        .check(sql`length(slug) BETWEEN 1 AND 60`),
    )
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("description_en", "text")
    .addColumn("description_de", "text")
    .addColumn("description_es", "text")
    .addColumn("code_pattern", "text")
    .addColumn("emoji_icon", "text", (c) => c.notNull().defaultTo("🌐"))
    .addColumn("gradient_from", "text", (c) => c.notNull())
    .addColumn("gradient_to", "text", (c) => c.notNull())
    .addColumn("is_active", "integer", (c) => c.notNull().defaultTo(1).modifyEnd(flag("is_active")))
    .addColumn("show_in_homepage", "integer", (c) => c.notNull().defaultTo(1).modifyEnd(flag("show_in_homepage")))
    .addColumn("show_in_partnerships", "integer", (c) => c.notNull().defaultTo(1).modifyEnd(flag("show_in_partnerships")))
    .addColumn("display_order", "integer", (c) =>
      c
        .notNull()
        .defaultTo(10)
        .check(sql`display_order >= 0`),
    )
    .addColumn("custom_logo_light_url", "text")
    .addColumn("custom_logo_dark_url", "text")
    .addColumn("hosts", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("referral_url_template", "text")
    .addColumn("url_rules", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("platforms_home_idx")
    .on("platforms")
    .columns(["is_active", "show_in_homepage", "display_order"])
    .execute();
  await db.schema
    .createIndex("platforms_partners_idx")
    .on("platforms")
    .columns(["is_active", "show_in_partnerships", "display_order"])
    .execute();
  await db.schema.createIndex("platforms_created_idx").on("platforms").column("created_at").execute();

  await db.schema
    .createTable("referral_codes")
    .$call(withId(db))
    .addColumn("platform_id", "integer", (c) => c.notNull().references("platforms.id").onDelete("cascade"))
    .addColumn("code", "text", (c) => c.notNull().check(sql`length(code) BETWEEN 1 AND 200`))
    .addColumn("referral_url", "text", (c) => c.check(sql`referral_url IS NULL OR length(referral_url) <= 2048`))
    .addColumn("is_active", "integer", (c) => c.notNull().defaultTo(1).modifyEnd(flag("is_active")))
    .addColumn("is_permanent", "integer", (c) => c.notNull().defaultTo(0).modifyEnd(flag("is_permanent")))
    .addColumn("expires_at", "text")
    .addColumn("times_served", "integer", (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`times_served >= 0`),
    )
    .addColumn("last_served_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addUniqueConstraint("referral_codes_platform_code_unique", ["platform_id", "code"])
    .execute();
  // The draw: eligible (active) codes of one platform in serving order.
  await db.schema
    .createIndex("referral_codes_draw_idx")
    .on("referral_codes")
    .columns(["platform_id", "times_served", "last_served_at", "created_at", "id"])
    .where(sql.ref("is_active"), "=", 1)
    .execute();
  // The draw across all platforms (/random).
  await db.schema
    .createIndex("referral_codes_draw_all_idx")
    .on("referral_codes")
    .columns(["times_served", "last_served_at", "created_at", "id"])
    .where(sql.ref("is_active"), "=", 1)
    .execute();
  await db.schema
    .createIndex("referral_codes_platform_created_idx")
    .on("referral_codes")
    .columns(["platform_id", "created_at"])
    .execute();
  await db.schema.createIndex("referral_codes_expiry_idx").on("referral_codes").columns(["is_permanent", "expires_at"]).execute();

  await db.schema
    .createTable("random_requests")
    .$call(withId(db))
    .addColumn("platform_id", "integer", (c) => c.notNull().references("platforms.id").onDelete("cascade"))
    .addColumn("served_code_id", "integer", (c) => c.references("referral_codes.id").onDelete("set null"))
    .addColumn("served_code", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("random_requests_created_idx").on("random_requests").column("created_at").execute();
  await db.schema
    .createIndex("random_requests_platform_created_idx")
    .on("random_requests")
    .columns(["platform_id", "created_at"])
    .execute();
  await db.schema.createIndex("random_requests_code_idx").on("random_requests").column("served_code_id").execute();

  await db.schema
    .createTable("deletion_requests")
    .$call(withId(db))
    .addColumn("code", "text", (c) => c.notNull().check(sql`length(code) BETWEEN 1 AND 200`))
    .addColumn("platform_id", "integer", (c) => c.notNull().references("platforms.id").onDelete("cascade"))
    .addColumn("reason", "text", (c) => c.check(sql`reason IS NULL OR length(reason) <= 1000`))
    .addColumn("status", "text", (c) =>
      c
        .notNull()
        .defaultTo("pending")
        .check(sql`status IN ('pending', 'approved', 'rejected')`),
    )
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("resolved_at", "text")
    .execute();
  await db.schema.createIndex("deletion_requests_created_idx").on("deletion_requests").column("created_at").execute();

  await db.schema
    .createTable("platform_suggestions")
    .$call(withId(db))
    .addColumn("name", "text", (c) => c.notNull().check(sql`length(name) BETWEEN 1 AND 100`))
    .addColumn("normalized_name", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.check(sql`description IS NULL OR length(description) <= 1000`))
    .addColumn("website_url", "text", (c) => c.check(sql`website_url IS NULL OR length(website_url) <= 2048`))
    .addColumn("status", "text", (c) =>
      c
        .notNull()
        .defaultTo("pending")
        .check(sql`status IN ('pending', 'approved', 'rejected')`),
    )
    .addColumn("votes_count", "integer", (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`votes_count >= 0`),
    )
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("platform_suggestions_list_idx")
    .on("platform_suggestions")
    .columns(["status", "votes_count desc", "created_at desc"])
    .execute();
  await db.schema
    .createIndex("platform_suggestions_normalized_idx")
    .on("platform_suggestions")
    .column("normalized_name")
    .execute();

  await db.schema
    .createTable("platform_suggestion_votes")
    .$call(withId(db))
    .addColumn("suggestion_id", "integer", (c) => c.notNull().references("platform_suggestions.id").onDelete("cascade"))
    .addColumn("ip_hash", "text", (c) => c.notNull())
    .addColumn("client_fingerprint", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addUniqueConstraint("platform_suggestion_votes_unique", ["suggestion_id", "client_fingerprint"])
    .execute();
  await db.schema
    .createIndex("platform_suggestion_votes_ip_idx")
    .on("platform_suggestion_votes")
    .columns(["suggestion_id", "ip_hash"])
    .execute();
  await db.schema
    .createIndex("platform_suggestion_votes_client_idx")
    .on("platform_suggestion_votes")
    .columns(["client_fingerprint", "ip_hash"])
    .execute();

  await db.schema
    .createTable("partnerships")
    .$call(withId(db))
    .addColumn("name", "text", (c) => c.notNull().check(sql`length(name) BETWEEN 1 AND 100`))
    .addColumn("description", "text")
    .addColumn("url", "text", (c) => c.notNull().check(sql`length(url) <= 2048`))
    .addColumn("logo_url", "text", (c) => c.check(sql`logo_url IS NULL OR length(logo_url) <= 2048`))
    .addColumn("display_mode", "text", (c) =>
      c
        .notNull()
        .defaultTo("both")
        .check(sql`display_mode IN ('logo', 'name', 'both')`),
    )
    .addColumn("is_active", "integer", (c) => c.notNull().defaultTo(1).modifyEnd(flag("is_active")))
    .addColumn("display_order", "integer", (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`display_order >= 0`),
    )
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("partnerships_order_idx").on("partnerships").columns(["is_active", "display_order"]).execute();

  await db.schema
    .createTable("game_scores")
    .$call(withId(db))
    .addColumn("player_name", "text", (c) => c.notNull().check(sql`length(player_name) BETWEEN 1 AND 20`))
    .addColumn("score", "integer", (c) => c.notNull().check(sql`score >= 0`))
    .addColumn("device_type", "text", (c) => c.notNull().check(sql`device_type IN ('mobile', 'desktop')`))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("game_scores_board_idx")
    .on("game_scores")
    .columns(["device_type", "created_at", "score"])
    .execute();
  await db.schema.createIndex("game_scores_created_idx").on("game_scores").column("created_at").execute();

  await db.schema
    .createTable("settings")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("users")
    .$call(withId(db))
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("password_changed_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("user_roles")
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("role", "text", (c) => c.notNull().check(sql`role IN ('admin')`))
    .addPrimaryKeyConstraint("user_roles_pk", ["user_id", "role"])
    .execute();

  await db.schema
    .createTable("sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("sessions_user_idx").on("sessions").column("user_id").execute();
  await db.schema.createIndex("sessions_expires_idx").on("sessions").column("expires_at").execute();
}

export async function down(db: Db): Promise<void> {
  for (const table of [
    "sessions",
    "user_roles",
    "users",
    "settings",
    "game_scores",
    "partnerships",
    "platform_suggestion_votes",
    "platform_suggestions",
    "deletion_requests",
    "random_requests",
    "referral_codes",
    "platforms",
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
