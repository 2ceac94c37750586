import {
  data,
  MaxPartSizeExceededError,
  unstable_createMemoryUploadHandler,
  unstable_parseMultipartFormData,
} from "@remix-run/node";
import { MAX_LOGO_BYTES } from "./logo.server";
import type { RowActionData } from "./types";

export type { RowActionData };

/**
 * The body of an admin form, read only after requireAdmin. Multipart bodies (logo upload) are
 * parsed in memory with a per-part cap; a part over the cap gives `tooLarge` instead of throwing.
 */
export async function readAdminForm(request: Request): Promise<{ form: FormData; tooLarge: boolean }> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!type.startsWith("multipart/form-data")) return { form: await request.formData(), tooLarge: false };
  try {
    const form = await unstable_parseMultipartFormData(
      request,
      unstable_createMemoryUploadHandler({ maxPartSize: MAX_LOGO_BYTES }),
    );
    return { form, tooLarge: false };
  } catch (error) {
    if (error instanceof MaxPartSizeExceededError) return { form: new FormData(), tooLarge: true };
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
