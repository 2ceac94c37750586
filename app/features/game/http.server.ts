import type { AppLoadContext } from "@remix-run/node";
import { getT } from "~/i18n/i18next.server";
import { clientIp } from "~/utils/http.server";
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

const FORM_TYPE = "application/x-www-form-urlencoded";
const MAX_BODY = 16 * 1024;

/**
 * The request's form-encoded fields (first value of each), or the refusal to send back: the game's
 * endpoints take exactly what an HTML form would post, nothing else.
 */
export async function readFormFields(request: Request, t: GameT): Promise<Record<string, string> | Response> {
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (type !== FORM_TYPE) return refusal(t, 415, "bodyType");
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY) return refusal(t, 413, "bodyTooLarge");
  const text = await request.text();
  if (text.length > MAX_BODY) return refusal(t, 413, "bodyTooLarge");
  const fields: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(text)) if (!(key in fields)) fields[key] = value;
  return fields;
}

/** Per-address limit; the refusal when it is reached. */
export async function limitByAddress(limit: RateLimit, context: AppLoadContext, t: GameT): Promise<Response | null> {
  const hit = await hitRateLimit(limit, clientIp(context));
  if (hit.ok) return null;
  return jsonResponse(
    { error: t("errors.rateLimited", { count: Math.max(1, Math.ceil(hit.retryAfterSeconds / 60)) }), code: "rateLimited" },
    429,
    { "Retry-After": String(hit.retryAfterSeconds) },
  );
}
