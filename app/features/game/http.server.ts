import type { AppLoadContext } from "@remix-run/node";
import { getT } from "~/i18n/i18next.server";
import { addressKeyOf } from "~/utils/client-address.server";
import { readFormData } from "~/utils/form-data.server";
import { hitRateLimit, type RateLimit } from "~/utils/rate-limit.server";

/**
 * The game's endpoints speak JSON both ways of failure: a refusal is `{ "error": "…", "code": "…" }`
 * with a 4xx, the message in the visitor's language, so the end dialog can show it as is.
 */
export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...headers },
  });
}

export type GameT = Awaited<ReturnType<typeof getT>>;

export function gameT(request: Request): Promise<GameT> {
  return getT(request, "game");
}

export function refusal(t: GameT, status: number, code: string, headers: Record<string, string> = {}): Response {
  return jsonResponse({ error: t(`errors.${code}`), code }, status, headers);
}

export function methodNotAllowed(t: GameT, allow: string): Response {
  return refusal(t, 405, "method", { Allow: allow });
}

/** The game's codes for the shared form reader's refusals (415 not a form, 413 too large, 400 broken). */
const BODY_REFUSALS: Record<number, string> = { 415: "bodyType", 413: "bodyTooLarge", 400: "bodyType" };

/**
 * The request's form fields (first value of each), read by the site's one form reader, or the
 * refusal to send back as JSON: the game's endpoints take exactly what an HTML form would post.
 */
async function readFormFields(request: Request, t: GameT): Promise<Record<string, string> | Response> {
  let form: FormData;
  try {
    form = await readFormData(request);
  } catch (error) {
    if (error instanceof Response) return refusal(t, error.status, BODY_REFUSALS[error.status] ?? "bodyType");
    throw error;
  }
  const fields: Record<string, string> = {};
  for (const [key, value] of form) if (!(key in fields) && typeof value === "string") fields[key] = value;
  return fields;
}

/**
 * One game endpoint: POST only, a form body, a per-address limit, then `handle` with the fields.
 * Every refusal on the way is a 4xx JSON in the visitor's language.
 */
export async function gameAction(
  request: Request,
  context: AppLoadContext,
  limit: RateLimit,
  handle: (fields: Record<string, string>, t: GameT) => Response | Promise<Response>,
): Promise<Response> {
  const t = await gameT(request);
  if (request.method !== "POST") return methodNotAllowed(t, "POST");
  const fields = await readFormFields(request, t);
  if (fields instanceof Response) return fields;
  const limited = await limitByAddress(limit, context, t);
  if (limited) return limited;
  return handle(fields, t);
}

/** Per-address limit; the refusal when it is reached. */
async function limitByAddress(limit: RateLimit, context: AppLoadContext, t: GameT): Promise<Response | null> {
  const hit = await hitRateLimit(limit, addressKeyOf(context));
  if (hit.ok) return null;
  return jsonResponse(
    { error: t("errors.rateLimited", { count: Math.max(1, Math.ceil(hit.retryAfterSeconds / 60)) }), code: "rateLimited" },
    429,
    { "Retry-After": String(hit.retryAfterSeconds) },
  );
}
