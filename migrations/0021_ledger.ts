import { sql, type Kysely } from "kysely";
import { isPostgres, withId } from "./portable";

// The public ledger (issue 61, docs/ledger.md, decision 360): one row per draw and per change of a
// code's eligibility, per platform, in commit order. Written by triggers, in the transaction of the
// change itself, so no write path (the draw being rewritten included) can forget it, and a rolled
// back draw leaves nothing. `any`: migrations are frozen (see 0001).
//
// - ledger_events.at: the change's time, never earlier than the platform's previous event (a draw
//   logs its own time; other changes take the database's clock), so days follow the order of ids.
// - ledger_events.count, active, expires, capped: the code's state after the change (expires is
//   null for a permanent code): what a reader needs to replay the rule.
// - On PostgreSQL the trigger takes a transaction lock per platform (class 1902) before it writes:
//   the rows of one platform get their ids in the order the transactions commit.
// - ledger_days: closed days as published (header line and SHA-256), kept the first time a closed
//   day is read, so a closed day's file never changes (not even when a handle's key would).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  await db.schema
    .createTable("ledger_events")
    .$call(withId(db))
    .addColumn("platform_id", "integer", (c) => c.notNull())
    .addColumn("code_id", "integer", (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("at", "text", (c) => c.notNull())
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("count", "integer", (c) => c.notNull())
    .addColumn("active", "integer", (c) => c.notNull())
    .addColumn("expires", "text")
    .addColumn("capped", "text")
    .execute();
  await db.schema.createIndex("ledger_events_day_idx").on("ledger_events").columns(["platform_id", "day", "id"]).execute();
  await db.schema.createIndex("ledger_events_code_idx").on("ledger_events").columns(["code_id", "type", "day"]).execute();
  await db.schema
    .createTable("ledger_days")
    .addColumn("platform_id", "integer", (c) => c.notNull())
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("header", "text", (c) => c.notNull())
    .addColumn("sha256", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("ledger_days_pk", ["platform_id", "day"])
    .execute();

  if (isPostgres(db)) await postgresTriggers(db);
  else await sqliteTriggers(db);

  // The codes already there enter the ledger once, as added now (their state as it is).
  await sql`
    insert into ledger_events (platform_id, code_id, type, at, day, count, active, expires, capped)
    select platform_id, id, 'added', ${NOW_ISO(db)}, substr(${NOW_ISO(db)}, 1, 10), rotation_count, is_active,
      case when is_permanent = 1 then null else expires_at end, capped_until
    from referral_codes order by id
  `.execute(db);
}

const NOW_ISO = (db: Db) =>
  isPostgres(db)
    ? sql`to_char(clock_timestamp() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
    : sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;

// The platform's last event time: rows of a platform are read newest first on ledger_events_day_idx.
const LAST_AT = (platform: string) =>
  `(select e.at from ledger_events e where e.platform_id = ${platform} order by e.day desc, e.id desc limit 1)`;

// An update that the ledger records: eligibility, or the count changed without a serve (entering at
// the level). A serve (times_served + 1) is recorded by the draw's log row instead.
const CHANGED = `(old.is_active <> new.is_active or old.is_permanent <> new.is_permanent
  or old.expires_at is distinct from new.expires_at or old.capped_until is distinct from new.capped_until
  or old.platform_id <> new.platform_id
  or (old.rotation_count <> new.rotation_count and old.times_served = new.times_served))`;

const CHANGE_TYPE = `case
  when old.is_active = 1 and new.is_active = 0 then 'paused'
  when old.is_active = 0 and new.is_active = 1 then 'resumed'
  when old.capped_until is null and new.capped_until is not null then 'capped'
  when old.capped_until is not null and new.capped_until is null then 'cap-ended'
  when old.is_permanent <> new.is_permanent or old.expires_at is distinct from new.expires_at then 'expiry'
  when old.rotation_count <> new.rotation_count then 'level'
  else 'edited' end`;

const EXPIRES = (row: string) => `case when ${row}.is_permanent = 1 then null else ${row}.expires_at end`;

async function sqliteTriggers(db: Db): Promise<void> {
  const now = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";
  const at = (platform: string, own: string) => `max(${own}, coalesce(${LAST_AT(platform)}, ''))`;
  const insert = (type: string, row: string, at: string) => `
    insert into ledger_events (platform_id, code_id, type, at, day, count, active, expires, capped)
    select ${row}.platform_id, ${row}.id, ${type}, t.at, substr(t.at, 1, 10), ${row}.rotation_count, ${row}.is_active,
      ${EXPIRES(row)}, ${row}.capped_until
    from (select ${at} as at) t;`;
  // SQLite has no "is distinct from" before 3.39's alias: "is not" is the same for two values.
  const changed = CHANGED.replaceAll("is distinct from", "is not");
  const changeType = CHANGE_TYPE.replaceAll("is distinct from", "is not");
  await sql
    .raw(
      `create trigger ledger_draw after insert on random_requests when new.served_code_id is not null
      begin
        insert into ledger_events (platform_id, code_id, type, at, day, count, active, expires, capped)
        select c.platform_id, c.id, 'draw', t.at, substr(t.at, 1, 10), c.rotation_count, c.is_active, ${EXPIRES("c")}, c.capped_until
        from referral_codes c, (select ${at("new.platform_id", "new.created_at")} as at) t
        where c.id = new.served_code_id;
      end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger ledger_code_added after insert on referral_codes
      begin ${insert("'added'", "new", at("new.platform_id", `max(new.created_at, ${now})`))} end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger ledger_code_deleted after delete on referral_codes
      begin ${insert("'deleted'", "old", at("old.platform_id", now))} end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger ledger_code_moved after update on referral_codes when old.platform_id <> new.platform_id
      begin
        ${insert("'deleted'", "old", at("old.platform_id", now))}
        ${insert("'added'", "new", at("new.platform_id", now))}
      end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger ledger_code_changed after update on referral_codes
      when old.platform_id = new.platform_id and ${changed}
      begin ${insert(changeType, "new", at("new.platform_id", now))} end`,
    )
    .execute(db);
}

async function postgresTriggers(db: Db): Promise<void> {
  const now = `to_char(clock_timestamp() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  await sql
    .raw(
      `create function ledger_write(p_platform integer, p_code integer, p_type text, p_own text, p_count integer,
        p_active integer, p_expires text, p_capped text) returns void language plpgsql as $$
      declare
        v_at text;
      begin
        -- The copy from SQLite brings the ledger's own rows: its inserts record nothing again.
        if current_setting('parrainly.ledger_copy', true) = 'on' then
          return;
        end if;
        -- One platform's rows in commit order: held until this transaction ends.
        perform pg_advisory_xact_lock(1902, p_platform);
        v_at := greatest(p_own, ${now}, coalesce(${LAST_AT("p_platform")}, ''));
        insert into ledger_events (platform_id, code_id, type, at, day, count, active, expires, capped)
        values (p_platform, p_code, p_type, v_at, substr(v_at, 1, 10), p_count, p_active, p_expires, p_capped);
      end
      $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create function ledger_draw() returns trigger language plpgsql as $$
      declare
        c record;
      begin
        select id, platform_id, rotation_count, is_active, is_permanent, expires_at, capped_until into c
        from referral_codes where id = new.served_code_id;
        if found then
          perform ledger_write(c.platform_id, c.id, 'draw', new.created_at, c.rotation_count, c.is_active,
            ${EXPIRES("c")}, c.capped_until);
        end if;
        return null;
      end
      $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger ledger_draw after insert on random_requests
      for each row when (new.served_code_id is not null) execute function ledger_draw()`,
    )
    .execute(db);
  const write = (type: string, row: string, own: string) =>
    `perform ledger_write(${row}.platform_id, ${row}.id, ${type}, ${own}, ${row}.rotation_count, ${row}.is_active, ${EXPIRES(row)}, ${row}.capped_until);`;
  await sql
    .raw(
      `create function ledger_code() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          ${write("'added'", "new", "new.created_at")}
        elsif tg_op = 'DELETE' then
          ${write("'deleted'", "old", "''")}
        elsif old.platform_id <> new.platform_id then
          ${write("'deleted'", "old", "''")}
          ${write("'added'", "new", "''")}
        else
          ${write(CHANGE_TYPE, "new", "''")}
        end if;
        return null;
      end
      $$`,
    )
    .execute(db);
  await sql
    .raw(`create trigger ledger_code after insert or delete on referral_codes for each row execute function ledger_code()`)
    .execute(db);
  // A serve changes none of these: the draw's log row records it, and the draw calls no function here.
  await sql
    .raw(
      `create trigger ledger_code_changed after update on referral_codes
      for each row when (old.platform_id <> new.platform_id or ${CHANGED}) execute function ledger_code()`,
    )
    .execute(db);
}

export async function down(db: Db): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop trigger ledger_code on referral_codes`.execute(db);
    await sql`drop trigger ledger_code_changed on referral_codes`.execute(db);
    await sql`drop trigger ledger_draw on random_requests`.execute(db);
    await sql`drop function ledger_code()`.execute(db);
    await sql`drop function ledger_draw()`.execute(db);
    await sql`drop function ledger_write(integer, integer, text, text, integer, integer, text, text)`.execute(db);
  } else {
    for (const name of ["ledger_draw", "ledger_code_added", "ledger_code_deleted", "ledger_code_moved", "ledger_code_changed"]) {
      await sql.raw(`drop trigger ${name}`).execute(db);
    }
  }
  await db.schema.dropTable("ledger_days").execute();
  await db.schema.dropTable("ledger_events").execute();
}
