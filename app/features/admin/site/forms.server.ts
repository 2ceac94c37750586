import { getT } from "~/i18n/i18next.server";

/** The row id a form posts (`id`): a positive whole number, else null. */
export function parseRowId(value: FormDataEntryValue | null): number | null {
  if (typeof value !== "string" || !/^\d{1,15}$/.test(value)) return null;
  const id = Number(value);
  return id > 0 && Number.isSafeInteger(id) ? id : null;
}

/** Thrown for a malformed id or an unknown intent: 400, rendered by the error boundary. */
export async function badRequest(request: Request): Promise<Response> {
  const t = await getT(request, "admin-site");
  return new Response(t("errors.badRequest"), { status: 400 });
}

/** Thrown for an id that matches no row: 404, never a 500. */
export async function rowNotFound(request: Request, key: string): Promise<Response> {
  const t = await getT(request, "admin-site");
  return new Response(t(key), { status: 404 });
}
