import { sql, type Kysely } from "kysely";
import { withId } from "./portable";

// What visitors' data needs to be kept no longer than the privacy page says (decisions 320-322).
// `any`: migrations are frozen (see 0001).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  // The key of one month's address pseudonyms: random, made on first use, removed once its month is
  // over, after which no one can tell which address a stored pseudonym came from.
  await db.schema
    .createTable("pseudonym_keys")
    .addColumn("period", "text", (c) => c.primaryKey())
    .addColumn("secret", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  // A visitor's request to remove anything about them, with no code needed: what they describe,
  // read by the admin.
  await db.schema
    .createTable("removal_requests")
    .$call(withId(db))
    .addColumn("details", "text", (c) => c.notNull().check(sql`length(details) BETWEEN 1 AND 2000`))
    .addColumn("status", "text", (c) =>
      c
        .notNull()
        .defaultTo("pending")
        .check(sql`status IN ('pending', 'done')`),
    )
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("resolved_at", "text")
    .execute();
  await db.schema.createIndex("removal_requests_status_idx").on("removal_requests").columns(["status", "created_at"]).execute();
  await db.schema.createIndex("removal_requests_resolved_idx").on("removal_requests").column("resolved_at").execute();

  // The retention jobs walk these by age.
  await db.schema.createIndex("deletion_requests_resolved_idx").on("deletion_requests").column("resolved_at").execute();
  await db.schema
    .createIndex("platform_suggestion_votes_created_idx")
    .on("platform_suggestion_votes")
    .column("created_at")
    .execute();
  await db.schema
    .createIndex("platform_suggestions_created_idx")
    .on("platform_suggestions")
    .columns(["status", "created_at"])
    .execute();
}
