/**
 * Whether `error` is a unique-constraint violation, on either database: SQLite says
 * `UNIQUE constraint failed: table.column`, PostgreSQL sets SQLSTATE 23505 with the table, and the
 * key's columns in its detail (`Key (column)=(...) already exists.`). `on` narrows it to one
 * table's column.
 */
export function isUniqueViolation(error: unknown, on?: { table: string; column: string }): boolean {
  if (!(error instanceof Error)) return false;
  const pg = error as Error & { code?: string; table?: string; detail?: string };
  if (pg.code === "23505") return !on || (pg.table === on.table && (pg.detail ?? "").includes(`(${on.column})`));
  const match = /UNIQUE constraint failed: ([^\n]*)/i.exec(error.message);
  if (!match) return false;
  return !on || match[1]!.split(", ").includes(`${on.table}.${on.column}`);
}

/** The row exists no more, or is no longer in a state the action applies to. */
export class RowGoneError extends Error {
  constructor() {
    super("row gone");
  }
}
