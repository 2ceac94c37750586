/**
 * The largest id a row can have: PostgreSQL's `serial` is a 4-byte integer, and a larger number
 * sent to it fails the query ("out of range for type integer", a 500) instead of finding nothing.
 */
export const MAX_ROW_ID = 2_147_483_647;

/**
 * The row id a form posts (`id`), or a `?reject=12` search parameter: a positive whole number,
 * else null. Every route reads ids through this, so `"1e3"`, `"-1"`, `"12abc"`, `""` and
 * `"3000000000"` (past MAX_ROW_ID) are refused alike: not found, never a failed query.
 */
export function parseRowId(value: FormDataEntryValue | string | null | undefined): number | null {
  if (typeof value !== "string" || !/^\d{1,15}$/.test(value)) return null;
  const id = Number(value);
  return id > 0 && id <= MAX_ROW_ID ? id : null;
}
