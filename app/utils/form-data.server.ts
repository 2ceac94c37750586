import { MaxPartSizeExceededError, unstable_createMemoryUploadHandler, unstable_parseMultipartFormData } from "@remix-run/node";
import { getT } from "~/i18n/i18next.server";
import { failure } from "./responses.server";

/** A text field is a few hundred bytes at most; the server already caps a whole form at 64 KB. */
const MAX_FIELD_BYTES = 64 * 1024;
/** The logo form has a dozen fields; a multipart body of thousands of parts is no form of ours. */
const MAX_PARTS = 64;

class TooManyParts extends Error {}

/**
 * The one way an action reads its form. Forms arrive urlencoded; multipart only where a form
 * uploads a file (the admin's logo: `upload` set), with at most MAX_PARTS parts and files up to
 * `upload.maxFileBytes` (413 past it). Anything else (JSON, text/plain, multipart on any other
 * form, no type) is refused with 415, and a body that cannot be read as the type it claims
 * (broken multipart, too many parts, a client that went away) with 400 — never a 500. Each
 * refusal is a thrown Response, rendered by the error boundary in the visitor's language.
 */
export async function readFormData(request: Request, options: { upload?: { maxFileBytes: number } } = {}): Promise<FormData> {
  const type = (request.headers.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "application/x-www-form-urlencoded") {
    let form: FormData;
    try {
      form = await request.formData();
    } catch {
      throw await refusal(request, 400, "malformed");
    }
    return withoutNul(request, form);
  }
  if (type === "multipart/form-data" && options.upload) {
    const fileOrField = unstable_createMemoryUploadHandler({
      maxPartSize: Math.max(options.upload.maxFileBytes, MAX_FIELD_BYTES),
    });
    let parts = 0;
    let form: FormData;
    try {
      form = await unstable_parseMultipartFormData(request, (part) => {
        if (++parts > MAX_PARTS) throw new TooManyParts();
        return fileOrField(part);
      });
    } catch (error) {
      if (error instanceof MaxPartSizeExceededError) throw await refusal(request, 413, "tooLarge");
      throw await refusal(request, 400, "malformed");
    }
    return withoutNul(request, form);
  }
  throw await refusal(request, 415, "notAForm");
}

/**
 * No browser sends U+0000 from a field, and SQLite's length() stops at it (a name of one NUL is
 * "empty" to the table's CHECK, past the schema's min(1)): a form holding one is malformed (400).
 */
async function withoutNul(request: Request, form: FormData): Promise<FormData> {
  for (const value of form.values())
    if (typeof value === "string" && value.includes("\u0000")) throw await refusal(request, 400, "malformed");
  return form;
}

async function refusal(request: Request, status: number, key: "malformed" | "tooLarge" | "notAForm"): Promise<Response> {
  const t = await getT(request, "forms");
  return failure(status, t(key));
}
