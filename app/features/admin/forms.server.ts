import type { SubmissionResult } from "@conform-to/react";
import {
  data,
  MaxPartSizeExceededError,
  unstable_createMemoryUploadHandler,
  unstable_parseMultipartFormData,
} from "@remix-run/node";
import { MAX_LOGO_BYTES } from "./catalog/logo.server";
import type { AdminFormReply } from "./forms";

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

/** A rejected admin form: the page renders again with the reply next to form `formId`. */
export function rejectForm(formId: string, result: SubmissionResult<string[]>, status = 400) {
  return data<AdminFormReply>({ formId, result }, { status });
}

/** A refusal the schema could not see (a slug taken, a file too large): `key` under `field` ("" = the form). */
export function rejectWith(
  formId: string,
  key: string,
  { field = "", status = 400, initialValue }: { field?: string; status?: number; initialValue?: Record<string, string> } = {},
) {
  return rejectForm(formId, { status: "error", error: { [field]: [key] }, initialValue }, status);
}
