// Where the "years of success" data set (scripts/scale-data.ts) is written: raw better-sqlite3
// statements for the bench's large SQLite file, or Kysely on either database for the tests.
import type SQLite from "better-sqlite3";
import type { DB } from "~db/client.server";

export type Row = Array<string | number | null>;
/** Receives rows of one table, in chunks; resolves once they are written. */
export type Sink = (table: string, columns: readonly string[], rows: Row[]) => void | Promise<void>;

/** Writes through raw better-sqlite3 statements (many rows per statement); the caller holds a transaction. */
export function sqliteSink(sqlite: SQLite.Database): Sink {
  const statements = new Map<string, SQLite.Statement>();
  return (table, columns, rows) => {
    const key = `${table}:${rows.length}`;
    let statement = statements.get(key);
    if (!statement) {
      const tuple = `(${columns.map(() => "?").join(", ")})`;
      statement = sqlite.prepare(
        `insert into ${table} (${columns.join(", ")}) values ${Array(rows.length).fill(tuple).join(", ")}`,
      );
      statements.set(key, statement);
    }
    statement.run(rows.flat());
  };
}

/** Writes through Kysely (SQLite or PostgreSQL), a chunk per statement. */
export function kyselySink(db: DB): Sink {
  return async (table, columns, rows) => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- generic bulk insert over any table
    await (db as any)
      .insertInto(table)
      .values(rows.map((r) => Object.fromEntries(columns.map((c, i) => [c, r[i]]))))
      .execute();
  };
}
