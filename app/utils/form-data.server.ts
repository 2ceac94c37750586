import { MaxPartSizeExceededError, unstable_createMemoryUploadHandler, unstable_parseMultipartFormData } from "@remix-run/node";
import { getT } from "~/i18n/i18next.server";
import { failure } from "./responses.server";

/** A text field is a few hundred bytes at most; the server already caps a whole form at 64 KB. */
const MAX_FIELD_BYTES = 64 * 1024;

/**
 * The one way an action reads its form. Forms arrive urlencoded, or multipart where a form uploads
 * a file; anything else (JSON, text/plain, no type) is refused with 415, and a body that cannot be
 * read as the type it claims (broken multipart, a client that went away) with 400 — never a 500.
 * A file over `maxFileBytes` (default: no files beyond a text field's size) gives 413. Endpoints
 * that scripts post to, with no file ever, may take `urlencodedOnly` and refuse multipart as well.
 * Each refusal is a thrown Response, rendered by the error boundary in the visitor's language.
 */
export async function readFormData(
  request: Request,
  options: { maxFileBytes?: number; urlencodedOnly?: boolean } = {},
): Promise<FormData> {
  const type = (request.headers.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "application/x-www-form-urlencoded") {
    try {
      return await request.formData();
    } catch {
      throw await refusal(request, 400, "malformed");
    }
  }
  if (type === "multipart/form-data" && !options.urlencodedOnly) {
    try {
      return await unstable_parseMultipartFormData(
        request,
        unstable_createMemoryUploadHandler({ maxPartSize: options.maxFileBytes ?? MAX_FIELD_BYTES }),
      );
    } catch (error) {
      if (error instanceof MaxPartSizeExceededError) throw await refusal(request, 413, "tooLarge");
      throw await refusal(request, 400, "malformed");
    }
  }
  throw await refusal(request, 415, "notAForm");
}

async function refusal(request: Request, status: number, key: "malformed" | "tooLarge" | "notAForm"): Promise<Response> {
  const t = await getT(request, "forms");
  return failure(status, t(key));
}
