import type { SubmissionResult } from "@conform-to/react";
import { data } from "@remix-run/node";
import { readFormData } from "~/utils/form-data.server";
import type { AdminFormReply } from "./forms";

/** The one file an admin form takes is a platform's logo, a small picture: 512 KB at most. */
export const MAX_UPLOAD_BYTES = 512 * 1024;

/**
 * The body of an admin form, read only after requireAdmin. A file over the cap gives `tooLarge`
 * (the page shows the message next to the file field) instead of the general 413 page.
 */
export async function readAdminForm(request: Request): Promise<{ form: FormData; tooLarge: boolean }> {
  try {
    return { form: await readFormData(request, { upload: { maxFileBytes: MAX_UPLOAD_BYTES } }), tooLarge: false };
  } catch (error) {
    if (error instanceof Response && error.status === 413) return { form: new FormData(), tooLarge: true };
    throw error;
  }
}

/** A rejected admin form: the page renders again with the reply next to form `formId`. */
export function rejectForm(formId: string, result: SubmissionResult<string[]>, status = 400, headers?: HeadersInit) {
  return data<AdminFormReply>({ formId, result }, { status, headers });
}

/** The text fields of a posted form, to give back as the form's values (files and repeated names aside). */
function valuesOf(form: FormData): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of form) if (typeof value === "string" && !(name in values)) values[name] = value;
  return values;
}

/** A refusal the schema could not see (a slug taken, a file too large): `key` under `field` ("" = the form). */
export function rejectWith(
  formId: string,
  key: string,
  { field = "", status = 400, initialValue }: { field?: string; status?: number; initialValue?: Record<string, string> } = {},
) {
  return rejectForm(formId, { status: "error", error: { [field]: [key] }, initialValue }, status);
}

/**
 * An admin write's answer when the database refuses it (`runWrite(formId, write, refusedForm(...))`):
 * the page renders again with the tab's own message for that write next to form `formId` (a 503
 * with Retry-After), instead of the error page, and with what the admin typed (`form`'s text
 * fields): a form shown again empty would erase the stored texts when saved as it is.
 * `failureKey` is a qualified key ("admin-catalog:deletions.errors.approve").
 */
export function refusedForm(formId: string, failureKey: string, form: FormData) {
  return (headers: Record<string, string>) =>
    rejectForm(formId, { status: "error", error: { "": [failureKey] }, initialValue: valuesOf(form) }, 503, headers);
}
