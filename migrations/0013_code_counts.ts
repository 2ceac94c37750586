import { sql, type Kysely } from "kysely";
import { isPostgres } from "./portable";

// The count of codes a draw could serve, per platform, without reading every code (issue 24,
// decision 194). A code is in the draw when it is active, not capped and not expired; the first two
// change only with a write, the last with time. So:
//
// - platform_code_counts.codes: per platform, all its codes (the dashboard's total), and
//   platform_code_counts.active_uncapped: per platform, the codes that are active and not capped,
//   kept by triggers in the same statement as every write to referral_codes (whatever module writes:
//   submits, the admin, pauses, caps, deletions, clean-ups, the copy to PostgreSQL);
// - referral_codes_expired_idx: the active, uncapped codes whose expiry has passed, as a range of a
//   small partial index (the clean-up job removes expired codes hourly); is_permanent leads, as in
//   referral_codes_expiry_idx, so that SQLite prefers this one, which holds every column it reads;
// - the codes whose cap has ended are found on referral_codes_capped_idx (0012); the history job
//   clears ended caps, so that set stays small too.
//
// In the draw now = active_uncapped - expired + cap ended. `any`: migrations are frozen (see 0001).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  await db.schema
    .createTable("platform_code_counts")
    .addColumn("platform_id", "integer", (c) => c.primaryKey())
    .addColumn("active_uncapped", "integer", (c) => c.notNull().defaultTo(0))
    // Every code of the platform, whatever its state (the dashboard's total).
    .addColumn("codes", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`
    insert into platform_code_counts (platform_id, active_uncapped, codes)
    select platform_id, sum(case when is_active = 1 and capped_until is null then 1 else 0 end), count(*)
    from referral_codes
    group by platform_id
  `.execute(db);
  await sql`
    create index referral_codes_expired_idx on referral_codes (is_permanent, expires_at, platform_id)
    where is_active = 1 and is_permanent = 0 and capped_until is null
  `.execute(db);

  if (isPostgres(db)) {
    await sql`
      create function referral_codes_count() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' or (tg_op = 'UPDATE' and new.platform_id <> old.platform_id) then
          update platform_code_counts set codes = codes - 1 where platform_id = old.platform_id;
        end if;
        if tg_op = 'INSERT' or (tg_op = 'UPDATE' and new.platform_id <> old.platform_id) then
          insert into platform_code_counts (platform_id, codes) values (new.platform_id, 1)
          on conflict (platform_id) do update set codes = platform_code_counts.codes + 1;
        end if;
        if tg_op in ('DELETE', 'UPDATE') and old.is_active = 1 and old.capped_until is null then
          update platform_code_counts set active_uncapped = active_uncapped - 1 where platform_id = old.platform_id;
        end if;
        if tg_op in ('INSERT', 'UPDATE') and new.is_active = 1 and new.capped_until is null then
          insert into platform_code_counts (platform_id, active_uncapped) values (new.platform_id, 1)
          on conflict (platform_id) do update set active_uncapped = platform_code_counts.active_uncapped + 1;
        end if;
        return null;
      end
      $$
    `.execute(db);
    // Only the columns the count depends on: the draw's own update (times served) fires nothing.
    await sql`
      create trigger referral_codes_count after insert or delete or update of is_active, capped_until, platform_id
      on referral_codes for each row execute function referral_codes_count()
    `.execute(db);
    return;
  }
  const increment = sql`
    insert into platform_code_counts (platform_id, active_uncapped) values (new.platform_id, 1)
    on conflict (platform_id) do update set active_uncapped = active_uncapped + 1;
  `;
  const decrement = sql`
    update platform_code_counts set active_uncapped = active_uncapped - 1 where platform_id = old.platform_id;
  `;
  const codesPlusOne = sql`
    insert into platform_code_counts (platform_id, codes) values (new.platform_id, 1)
    on conflict (platform_id) do update set codes = codes + 1;
  `;
  const codesMinusOne = sql`
    update platform_code_counts set codes = codes - 1 where platform_id = old.platform_id;
  `;
  await sql`
    create trigger referral_codes_total_insert after insert on referral_codes
    begin ${codesPlusOne} end
  `.execute(db);
  await sql`
    create trigger referral_codes_total_delete after delete on referral_codes
    begin ${codesMinusOne} end
  `.execute(db);
  await sql`
    create trigger referral_codes_total_move after update of platform_id on referral_codes
    when new.platform_id <> old.platform_id
    begin ${codesMinusOne} ${codesPlusOne} end
  `.execute(db);
  await sql`
    create trigger referral_codes_count_insert after insert on referral_codes
    when new.is_active = 1 and new.capped_until is null
    begin ${increment} end
  `.execute(db);
  await sql`
    create trigger referral_codes_count_delete after delete on referral_codes
    when old.is_active = 1 and old.capped_until is null
    begin ${decrement} end
  `.execute(db);
  await sql`
    create trigger referral_codes_count_update_old after update of is_active, capped_until, platform_id on referral_codes
    when old.is_active = 1 and old.capped_until is null
    begin ${decrement} end
  `.execute(db);
  await sql`
    create trigger referral_codes_count_update_new after update of is_active, capped_until, platform_id on referral_codes
    when new.is_active = 1 and new.capped_until is null
    begin ${increment} end
  `.execute(db);
}

export async function down(db: Db): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop trigger referral_codes_count on referral_codes`.execute(db);
    await sql`drop function referral_codes_count()`.execute(db);
  } else {
    for (const name of [
      "count_insert",
      "count_delete",
      "count_update_old",
      "count_update_new",
      "total_insert",
      "total_delete",
      "total_move",
    ]) {
      await sql`drop trigger ${sql.raw(`referral_codes_${name}`)}`.execute(db);
    }
  }
  await db.schema.dropIndex("referral_codes_expired_idx").execute();
  await db.schema.dropTable("platform_code_counts").execute();
}
