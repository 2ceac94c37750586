import type { HeadersFunction } from "@remix-run/node";
import { getT } from "~/i18n/i18next.server";

/**
 * Failure answers. Two shapes, and only two:
 * - a form the visitor can correct answers `data({ result: submission.reply() }, { status: 400 })`
 *   (Conform's reply: the message shows next to its field, the page renders again);
 * - a request no honest form sends (unknown intent, malformed id), a row that is gone, a refusal:
 *   throw one of the Responses below. The route's ErrorBoundary (GeneralErrorBoundary) renders its
 *   plain-text message, already in the visitor's language.
 */
export function failure(status: number, message: string, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set("Content-Type", "text/plain; charset=utf-8");
  return new Response(message, { ...init, status, headers });
}

/**
 * Throws `failure(status, message)` unless `condition` holds (epic-stack's invariantResponse).
 * Narrows the type: `invariantResponse(row, t("x.notFound"), 404)` leaves `row` non-null.
 */
export function invariantResponse(
  condition: unknown,
  message: string | (() => string),
  status = 400,
  init?: ResponseInit,
): asserts condition {
  if (!condition) throw failure(status, typeof message === "function" ? message() : message, init);
}

/** `key` is `namespace:key` or a key of `common`, translated in the visitor's language. */
async function translated(request: Request, status: number, key: string, values?: Record<string, unknown>) {
  const t = await getT(request, "common");
  return failure(status, t(key, values) as string);
}

/** 400: an unknown intent, a malformed id, a body no form of ours sends. */
export function badRequest(request: Request, key = "errors.badRequest"): Promise<Response> {
  return translated(request, 400, key);
}

/** 404: the row or page asked for does not exist (or no longer does). */
export function notFound(request: Request, key = "errors.notFound"): Promise<Response> {
  return translated(request, 404, key);
}

/** 403: not allowed (not an admin, not this site). */
export function forbidden(request: Request, key = "errors.forbidden"): Promise<Response> {
  return translated(request, 403, key);
}

/** The Retry-After of a refusal the page answers with: thrown (errorHeaders) or returned with a form's reply (actionHeaders). */
export function retryAfterOf({ errorHeaders, actionHeaders }: Parameters<HeadersFunction>[0]): string | null {
  return errorHeaders?.get("Retry-After") ?? actionHeaders.get("Retry-After");
}

/**
 * The `headers` export of every route that can refuse with a Retry-After (a 429, or a 503 when the
 * database refuses writes): the layout's headers (Vary, Cache-Control, kept as a route without
 * `headers` would) and the refusal's Retry-After, thrown or returned with the form's reply. Remix
 * takes a page's headers from its own route's `headers` alone: without this export a reply's
 * Retry-After is dropped (decision 302).
 */
export const keepRetryAfter: HeadersFunction = (args) => {
  const headers = new Headers(args.parentHeaders);
  const retryAfter = retryAfterOf(args);
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
};
