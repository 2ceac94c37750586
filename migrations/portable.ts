import { PostgresAdapter, type CreateTableBuilder, type Kysely } from "kysely";

// The one place a migration branches on the database: every other statement is Kysely's portable
// schema builder. `any`: migrations are frozen in time (see 0001).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

/** True when the migration runs on PostgreSQL (DATABASE_URL=postgres://...). */
export function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * The surrogate key: `integer primary key autoincrement` on SQLite (what the shipped databases
 * have, unchanged), `serial primary key` on PostgreSQL (which has no AUTOINCREMENT keyword).
 */
export function withId(db: Db) {
  return <T extends string>(table: CreateTableBuilder<T, never>) =>
    isPostgres(db)
      ? table.addColumn("id", "serial", (c) => c.primaryKey())
      : table.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement());
}
