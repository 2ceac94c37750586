import { data } from "@remix-run/node";
import { readFormData } from "~/utils/form-data.server";
import { MAX_LOGO_BYTES } from "./logo.server";
import type { RowActionData } from "./types";

export type { RowActionData };

/**
 * The body of an admin form, read only after requireAdmin. A logo over the cap gives `tooLarge`
 * (the page shows the message next to the file field) instead of the general 413 page.
 */
export async function readAdminForm(request: Request): Promise<{ form: FormData; tooLarge: boolean }> {
  try {
    return { form: await readFormData(request, { maxFileBytes: MAX_LOGO_BYTES }), tooLarge: false };
  } catch (error) {
    if (error instanceof Response && error.status === 413) return { form: new FormData(), tooLarge: true };
    throw error;
  }
}

export function rowIdOf(form: FormData): number | null {
  const id = Number(form.get("id"));
  return Number.isInteger(id) && id > 0 ? id : null;
}

/** A rejected row action: the page renders again with `key` next to the row, nothing written. */
export function rowError(
  intent: string,
  id: number | null,
  key: string,
  status = 400,
  field = "",
  initialValue?: Record<string, string>,
) {
  return data<RowActionData>({ intent, id, result: { status: "error", error: { [field]: [key] }, initialValue } }, { status });
}
