import { sql, type Kysely } from "kysely";
import { isPostgres } from "./portable";

// Fair in time (issue 55, docs/fairness.md, decision 310). `any`: migrations are frozen (see 0001).
//
// - referral_codes.rotation_count: the code's place in the rotation, the draw's sort key. A serve adds
//   one (as to times_served, which stays the real count of serves); a code entering the rotation is
//   raised to the level of the codes already in it (never lowered).
// - referral_codes.draw_key: a random number drawn anew at every serve; among the least served, the
//   smallest key is served first, so each round is in a random order no one can learn.
// - referral_codes.code_key: a keyed hash of platform and code (never the code in clear), and
//   code_history: what a deleted code had reached, found again when the same code comes back.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  await db.schema
    .alterTable("referral_codes")
    .addColumn("rotation_count", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable("referral_codes")
    .addColumn("draw_key", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("referral_codes").addColumn("code_key", "text").execute();
  const random = isPostgres(db) ? sql`floor(random() * 2147483647)::integer` : sql`abs(random() % 2147483647)`;
  await sql`update referral_codes set rotation_count = times_served, draw_key = ${random}`.execute(db);

  await db.schema.dropIndex("referral_codes_draw_idx").execute();
  await db.schema.dropIndex("referral_codes_draw_all_idx").execute();
  await db.schema
    .createIndex("referral_codes_draw_idx")
    .on("referral_codes")
    .columns(["platform_id", "rotation_count", "draw_key", "id"])
    .where(sql.ref("is_active"), "=", 1)
    .execute();
  await db.schema
    .createIndex("referral_codes_draw_all_idx")
    .on("referral_codes")
    .columns(["rotation_count", "draw_key", "id"])
    .where(sql.ref("is_active"), "=", 1)
    .execute();

  await db.schema
    .createTable("code_history")
    .addColumn("code_key", "text", (c) => c.primaryKey())
    .addColumn("platform_id", "integer", (c) => c.notNull())
    .addColumn("rotation_count", "integer", (c) => c.notNull())
    .addColumn("times_served", "integer", (c) => c.notNull())
    .addColumn("deleted_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("code_history_deleted_idx").on("code_history").column("deleted_at").execute();

  // Every way a code goes (owner, admin, deletion request, expiry clean-up, platform removal) keeps
  // what it had reached: a trigger, so no path can forget.
  if (isPostgres(db)) {
    await sql`
      create function referral_codes_history() returns trigger language plpgsql as $$
      begin
        insert into code_history (code_key, platform_id, rotation_count, times_served, deleted_at)
        values (old.code_key, old.platform_id, old.rotation_count, old.times_served, to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
        on conflict (code_key) do update set
          rotation_count = greatest(code_history.rotation_count, excluded.rotation_count),
          times_served = greatest(code_history.times_served, excluded.times_served),
          deleted_at = excluded.deleted_at;
        return null;
      end
      $$
    `.execute(db);
    await sql`
      create trigger referral_codes_history after delete on referral_codes
      for each row when (old.code_key is not null) execute function referral_codes_history()
    `.execute(db);
    return;
  }
  await sql`
    create trigger referral_codes_history after delete on referral_codes
    when old.code_key is not null
    begin
      insert into code_history (code_key, platform_id, rotation_count, times_served, deleted_at)
      values (old.code_key, old.platform_id, old.rotation_count, old.times_served, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
      on conflict (code_key) do update set
        rotation_count = max(rotation_count, excluded.rotation_count),
        times_served = max(times_served, excluded.times_served),
        deleted_at = excluded.deleted_at;
    end
  `.execute(db);
}

export async function down(db: Db): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop trigger referral_codes_history on referral_codes`.execute(db);
    await sql`drop function referral_codes_history()`.execute(db);
  } else {
    await sql`drop trigger referral_codes_history`.execute(db);
  }
  await db.schema.dropTable("code_history").execute();
  await db.schema.dropIndex("referral_codes_draw_idx").execute();
  await db.schema.dropIndex("referral_codes_draw_all_idx").execute();
  await db.schema
    .createIndex("referral_codes_draw_idx")
    .on("referral_codes")
    .columns(["platform_id", "times_served", "last_served_at", "created_at", "id"])
    .where(sql.ref("is_active"), "=", 1)
    .execute();
  await db.schema
    .createIndex("referral_codes_draw_all_idx")
    .on("referral_codes")
    .columns(["times_served", "last_served_at", "created_at", "id"])
    .where(sql.ref("is_active"), "=", 1)
    .execute();
  for (const column of ["code_key", "draw_key", "rotation_count"]) {
    await db.schema.alterTable("referral_codes").dropColumn(column).execute();
  }
}
