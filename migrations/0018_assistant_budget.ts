import { sql, type Kysely } from "kysely";

// The assistant's daily token budget as a kept counter, one row per UTC day: the tokens spent that
// day plus those reserved by calls under way. A call reserves its worst case with one conditional
// UPDATE (`tokens + n <= limit`) before it leaves, and settles to what it spent once answered, so
// two exchanges (two processes, two databases' worth of connections) cannot both spend the last
// room: SQLite runs the statement under its write lock, PostgreSQL re-reads the row it waited for.
// `any`: migrations are frozen (see 0001).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  await db.schema
    .createTable("assistant_budget_days")
    .addColumn("day", "text", (c) => c.primaryKey())
    .addColumn("tokens", "integer", (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`tokens >= 0`),
    )
    .execute();
  // Today's spending so far, so that the budget does not start again at the upgrade; no row when
  // nothing was spent (a new database stays empty: the copy to PostgreSQL wants empty tables).
  const today = new Date().toISOString().slice(0, 10);
  await sql`
    insert into assistant_budget_days (day, tokens)
    select ${today}, sum(input_tokens + output_tokens)
    from assistant_usage
    where created_at >= ${`${today}T00:00:00.000Z`}
    having count(*) > 0
  `.execute(db);
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable("assistant_budget_days").execute();
}
