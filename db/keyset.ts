import { sql, type QueryExecutorProvider, type SelectQueryBuilder, type SqlBool } from "kysely";

/**
 * Keyset paging, the one way every list pages (admin tabs, public suggestions): a page is "the
 * `size` rows after (or before) this row's sort key", read with `WHERE (k1, k2) < (?, ?) ORDER BY
 * k1, k2 LIMIT size + 1` on an index whose columns are the keys. A page costs the same at row 50 or
 * row 50,000 (no OFFSET walk) and a row written meanwhile never shifts the next page.
 *
 * The last key must be unique (the id), so the order is total. All keys sort the same way: a row
 * value comparison then matches one index range on SQLite and PostgreSQL alike.
 */

type KeyType = "text" | "int";

export interface Keyset<Field extends string = string> {
  direction: "asc" | "desc";
  /** SQL column (as the query names it), the row's field that carries it, and its type. */
  keys: ReadonlyArray<{ column: string; field: Field; type: KeyType }>;
}

export type CursorValue = string | number;

/** Which page: the first, or the rows after / before a cursor (at most one of the two). */
export interface PageRequest {
  size: number;
  after?: string | null;
  before?: string | null;
}

export interface Page<Row> {
  rows: Row[];
  /** Cursors for the next and previous pages; null where there is none. */
  next: string | null;
  prev: string | null;
}

/** A cursor no page of ours handed out (tampered, truncated, from another list). */
export class BadCursorError extends Error {
  constructor() {
    super("bad page cursor");
  }
}

const MAX_TEXT_KEY = 200;

/** Totals shown above lists are counted up to this, then shown as "more than 10,000". */
export const COUNT_CAP = 10_000;

function encodeCursor(values: readonly CursorValue[]): string {
  return Buffer.from(JSON.stringify(values)).toString("base64url");
}

function decodeCursor(token: string, keyset: Keyset): CursorValue[] {
  let values: unknown;
  try {
    values = token.length <= 600 ? JSON.parse(Buffer.from(token, "base64url").toString("utf8")) : null;
  } catch {
    throw new BadCursorError();
  }
  if (!Array.isArray(values) || values.length !== keyset.keys.length) throw new BadCursorError();
  keyset.keys.forEach((key, i) => {
    const value: unknown = values[i];
    const fits =
      key.type === "int"
        ? typeof value === "number" && Number.isSafeInteger(value)
        : typeof value === "string" && value.length <= MAX_TEXT_KEY;
    if (!fits) throw new BadCursorError();
  });
  return values as CursorValue[];
}

function cursorOf<Row>(row: Row, keyset: Keyset): string {
  return encodeCursor(keyset.keys.map((k) => (row as Record<string, CursorValue>)[k.field]!));
}

/** The rows of one page of `query` (already filtered, not yet ordered), in the keyset's order. */
export async function keysetPage<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  keyset: Keyset,
  page: PageRequest,
): Promise<Page<O>> {
  if (page.after && page.before) throw new BadCursorError();
  const backwards = Boolean(page.before);
  const token = page.before || page.after || null;
  const cursor = token ? decodeCursor(token, keyset) : null;
  const forwardOp = keyset.direction === "desc" ? "<" : ">";
  const op = backwards ? (forwardOp === "<" ? ">" : "<") : forwardOp;
  const direction = backwards ? (keyset.direction === "desc" ? "asc" : "desc") : keyset.direction;
  let q = query;
  if (cursor) {
    const columns = sql.join(keyset.keys.map((k) => sql.ref(k.column)));
    const values = sql.join(cursor.map((v) => sql`${v}`));
    q = q.where(sql<SqlBool>`(${columns}) ${sql.raw(op)} (${values})`);
  }
  for (const key of keyset.keys) q = q.orderBy(sql.ref(key.column), direction);
  const fetched = await q.limit(page.size + 1).execute();
  const more = fetched.length > page.size;
  const rows = fetched.slice(0, page.size);
  if (backwards) rows.reverse();
  const first = rows[0];
  const last = rows[rows.length - 1];
  if (backwards) {
    return { rows, prev: more && first ? cursorOf(first, keyset) : null, next: last ? cursorOf(last, keyset) : token };
  }
  return {
    rows,
    next: more && last ? cursorOf(last, keyset) : null,
    prev: token ? (first ? cursorOf(first, keyset) : token) : null,
  };
}

/**
 * How many rows `query` matches, counting at most `cap` (a count that stays cheap on a table of
 * millions): `{ count, capped }` where capped means "at least `cap`".
 */
export async function boundedCount<DB, TB extends keyof DB, O>(
  db: QueryExecutorProvider,
  query: SelectQueryBuilder<DB, TB, O>,
  cap: number,
): Promise<{ count: number; capped: boolean }> {
  const limited = query
    .clearSelect()
    .clearOrderBy()
    .select(sql<number>`1`.as("one"))
    .limit(cap + 1);
  const { rows } = await sql<{ n: number | string }>`select count(*) as n from (${limited}) as limited`.execute(db);
  const n = Number(rows[0]?.n ?? 0);
  return { count: Math.min(n, cap), capped: n > cap };
}
