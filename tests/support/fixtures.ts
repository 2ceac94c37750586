import SQLite from "better-sqlite3";
import { CompiledQuery, Kysely, PostgresAdapter, PostgresDialect, SqliteDialect, sql, type Insertable } from "kysely";
import { openPgPool } from "../../db/client.server";
import type { Database } from "../../db/schema";
import { knownPostgresDatabase } from "./postgres";

/**
 * The one place tests create rows: platforms, codes, users (admins or not). Every factory takes the
 * Kysely handle of the database under test (the app's own in unit/integration tests, `openTestDb`
 * over the server's file for HTTP and e2e tests), fills sensible defaults with unique values, and
 * returns the inserted row. Overrides are typed columns.
 */
export type TestDb = Kysely<Database>;

/**
 * A second handle on a running server's SQLite file (WAL lets both processes use it at once); on
 * the PostgreSQL pass, on the server's PostgreSQL database.
 */
export function openTestDb(file: string): TestDb {
  const postgres = process.env.TEST_POSTGRES_URL ? knownPostgresDatabase(file) : undefined;
  if (postgres) return new Kysely<Database>({ dialect: new PostgresDialect({ pool: openPgPool(postgres) }) });
  const sqlite = new SQLite(file);
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("foreign_keys = ON");
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
}

/**
 * A real failure in the real database: from now on, logging a draw of `code` is refused by a
 * trigger (SQLite's or PostgreSQL's). Returns what removes it.
 */
export async function refuseDrawLogOf(db: TestDb, code: string): Promise<() => Promise<void>> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`CREATE FUNCTION refuse_draw_log() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.served_code = ${sql.lit(code)} THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$`.execute(db);
    await sql`CREATE TRIGGER refuse_draw_log BEFORE INSERT ON random_requests FOR EACH ROW EXECUTE FUNCTION refuse_draw_log()`.execute(
      db,
    );
    return async () => {
      await sql`DROP TRIGGER refuse_draw_log ON random_requests`.execute(db);
      await sql`DROP FUNCTION refuse_draw_log()`.execute(db);
    };
  }
  await sql`CREATE TRIGGER refuse_draw_log BEFORE INSERT ON random_requests WHEN NEW.served_code = ${sql.lit(code)} BEGIN SELECT RAISE(ABORT, 'refused'); END`.execute(
    db,
  );
  return async () => void (await sql`DROP TRIGGER refuse_draw_log`.execute(db));
}

/**
 * A real failure in the real database: from now on, updating `column` of `table` fails with
 * "forced failure" (a trigger, SQLite's or PostgreSQL's).
 */
export async function failUpdatesOf(db: TestDb, table: string, column: string): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`CREATE FUNCTION ${sql.raw(`fail_${table}`)}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'forced failure'; END $$`.execute(db);
    await sql`CREATE TRIGGER ${sql.raw(`fail_${table}`)} BEFORE UPDATE OF ${sql.ref(column)} ON ${sql.table(table)}
      FOR EACH ROW EXECUTE FUNCTION ${sql.raw(`fail_${table}`)}()`.execute(db);
    return;
  }
  await sql`CREATE TRIGGER ${sql.raw(`fail_${table}`)} BEFORE UPDATE OF ${sql.ref(column)} ON ${sql.table(table)}
    BEGIN SELECT RAISE(ABORT, 'forced failure'); END`.execute(db);
}

/**
 * A real failure in the real database: every `event` on `table` aborts with "simulated disk failure"
 * (a trigger, SQLite's or PostgreSQL's), as a full disk or a locked file would. Returns what removes it.
 */
export async function failWritesTo(
  db: TestDb,
  table: string,
  event: "insert" | "update" | "delete",
): Promise<() => Promise<void>> {
  const name = sql.raw(`fail_${event}_${table}`);
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'simulated disk failure'; END $$`.execute(db);
    await sql`CREATE TRIGGER ${name} BEFORE ${sql.raw(event.toUpperCase())} ON ${sql.table(table)}
      FOR EACH ROW EXECUTE FUNCTION ${name}()`.execute(db);
    return async () => {
      await sql`DROP TRIGGER ${name} ON ${sql.table(table)}`.execute(db);
      await sql`DROP FUNCTION ${name}()`.execute(db);
    };
  }
  await sql`CREATE TRIGGER ${name} BEFORE ${sql.raw(event.toUpperCase())} ON ${sql.table(table)}
    BEGIN SELECT RAISE(ABORT, 'simulated disk failure'); END`.execute(db);
  return async () => void (await sql`DROP TRIGGER ${name}`.execute(db));
}

let counter = 0;
/** A short unique word (letters and digits) for slugs, names, codes. */
export function uniqueWord(prefix = "t"): string {
  return `${prefix}${++counter}${Math.random().toString(36).slice(2, 7)}`;
}

/** An active platform with a unique slug whose links are `https://<slug>.example/r/{code}`. */
export async function createPlatform(db: TestDb, overrides: Partial<Insertable<Database["platforms"]>> = {}) {
  const slug = overrides.slug ?? uniqueWord("p-");
  return db
    .insertInto("platforms")
    .values({
      name: `Test ${slug}`,
      slug,
      description: "Plateforme de test",
      gradient_from: "#1d4ed8",
      gradient_to: "#6d28d9",
      hosts: `${slug}.example`,
      referral_url_template: `https://${slug}.example/r/{code}`,
      url_rules: JSON.stringify([{ type: "path", after: "r" }]),
      created_at: new Date().toISOString(),
      ...overrides,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** An active, temporary code of `platformId` without an expiry, added a minute ago, unless told otherwise. */
export async function createCode(
  db: TestDb,
  platformId: number,
  overrides: Partial<Insertable<Database["referral_codes"]>> = {},
) {
  return db
    .insertInto("referral_codes")
    .values({
      platform_id: platformId,
      code: uniqueWord("CODE").toUpperCase(),
      created_at: new Date(Date.now() - 60_000).toISOString(),
      // Its place in the rotation follows the serves a test gives it, unless it says otherwise; the
      // tie-break key is random, as the rule draws it (db/repositories/rotation.server.ts).
      rotation_count: overrides.times_served ?? 0,
      draw_key: Math.floor(Math.random() * 2 ** 31),
      ...overrides,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * A user who can sign in; an admin unless `admin: false`. Returns the user's id.
 * @public the fixture for users, whether or not a test uses it today
 */
export async function createUser(
  db: TestDb,
  { email = `${uniqueWord("u")}@parrainly.test`, password = "test-passphrase-long-enough", admin = true } = {},
): Promise<{ id: number; email: string; password: string }> {
  const { hashPassword, normalizeEmail } = await import("../../db/repositories/users.server");
  const now = new Date().toISOString();
  const row = await db
    .insertInto("users")
    .values({
      email: normalizeEmail(email),
      password_hash: await hashPassword(password),
      created_at: now,
      password_changed_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  if (admin) await db.insertInto("user_roles").values({ user_id: row.id, role: "admin" }).execute();
  return { id: row.id, email, password };
}

/**
 * Plain SQL on a running server's database, the same text on both passes: `?` placeholders (turned
 * into `$1…` on PostgreSQL), counts written `cast(count(*) as integer)` so both answer numbers.
 * For tests that check or change rows behind the server's back; anything SQLite-only (pragmas,
 * sqlite_master, rowid) has no place here.
 */
export interface RawDb {
  all: <T = Record<string, unknown>>(query: string, ...params: unknown[]) => Promise<T[]>;
  get: <T = Record<string, unknown>>(query: string, ...params: unknown[]) => Promise<T | undefined>;
  run: (query: string, ...params: unknown[]) => Promise<{ changes: number }>;
  /** The database's own tables (SQLite's and Kysely's bookkeeping left out), by name. */
  tables: () => Promise<string[]>;
  close: () => Promise<void>;
}

export function openRawDb(file: string): RawDb {
  const db = openTestDb(file);
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const compile = (query: string, params: unknown[]) => {
    let n = 0;
    return CompiledQuery.raw(postgres ? query.replace(/\?/g, () => `$${++n}`) : query, params);
  };
  const all = async <T>(query: string, ...params: unknown[]) => (await db.executeQuery<T>(compile(query, params))).rows;
  return {
    all,
    get: async <T>(query: string, ...params: unknown[]) => (await all<T>(query, ...params))[0],
    run: async (query, ...params) => ({
      changes: Number((await db.executeQuery(compile(query, params))).numAffectedRows ?? 0),
    }),
    tables: async () =>
      (
        await all<{ name: string }>(
          postgres
            ? "select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'"
            : "select name from sqlite_master where type = 'table' and name not like 'sqlite_%'",
        )
      )
        .map((r) => r.name)
        .filter((name) => !name.startsWith("kysely_"))
        .sort(),
    close: () => db.destroy(),
  };
}

/** Opens the server's database for one piece of work (`openRawDb`), then closes it. */
export async function withRawDb<T>(file: string, work: (db: RawDb) => Promise<T>): Promise<T> {
  const db = openRawDb(file);
  try {
    return await work(db);
  } finally {
    await db.close();
  }
}
