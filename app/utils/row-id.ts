/**
 * The row id a form posts (`id`), or a `?reject=12` search parameter: a positive whole number,
 * else null. Every route reads ids through this, so `"1e3"`, `"-1"`, `"12abc"` and `""` are refused alike.
 */
export function parseRowId(value: FormDataEntryValue | string | null | undefined): number | null {
  if (typeof value !== "string" || !/^\d{1,15}$/.test(value)) return null;
  const id = Number(value);
  return id > 0 && Number.isSafeInteger(id) ? id : null;
}
