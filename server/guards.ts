import type { Request as ExpressRequest, RequestHandler } from "express";
import { getOptionalAdmin } from "~/utils/auth.server";
import { getEnv } from "~/utils/env.server";
import { forbidden } from "~/utils/responses.server";
import { assertSameOrigin, isCrossSiteWrite } from "~/utils/same-origin.server";
import { isAdminPath, normalizedPathOf, normalizePath } from "./request-path";

/** What the first look at a request needs (header values as sent). */
interface WriteSummary {
  method: string;
  /** Normalised: decoded, lower-case (server/request-path.ts). */
  path: string;
  /** `Sec-Fetch-Site`: where the browser says the request comes from. */
  fetchSite: string | undefined;
  origin: string | undefined;
  referer: string | undefined;
  host: string | undefined;
  forwardedHost: string | undefined;
}

/**
 * Writes refused before Remix sees them (cross-site, a stranger's write under /admin), with a 403
 * in the visitor's language; reads pass untouched.
 */
export function refuseForbiddenWrites(): RequestHandler {
  return (req, res, next) => {
    if (isRead(req.method)) return next();
    const summary = {
      method: req.method,
      path: normalizedPathOf(req),
      fetchSite: req.get("sec-fetch-site"),
      origin: req.get("origin"),
      referer: req.get("referer"),
      host: req.get("host"),
      forwardedHost: req.get("x-forwarded-host"),
    };
    if (!mayRefuseWrite(summary)) return next();
    refuseWrite(headersOnly(req))
      .then(async (refusal) => {
        if (!refusal) return next();
        res.status(refusal.status);
        refusal.headers.forEach((value, key) => res.setHeader(key, value));
        res.send(await refusal.text());
      })
      .catch(next);
  };
}

/** The request as the app sees it (address, method, headers), without its body. */
function headersOnly(req: ExpressRequest): Request {
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(key, v);
    else if (value !== undefined) headers.set(key, value);
  }
  // Joined, not resolved: a path starting with `//` stays a path, not another host.
  const joined = `${req.protocol}://${req.get("host") ?? "localhost"}${req.originalUrl}`;
  const url = URL.canParse(joined) ? joined : `${req.protocol}://localhost${req.originalUrl}`;
  return new Request(url, {
    method: req.method,
    headers,
  });
}

const OPEN_ADMIN_PATHS = new Set(["/admin/login", "/admin/login.data", "/admin/logout", "/admin/logout.data"]);

const isRead = (method: string) => method === "GET" || method === "HEAD" || method === "OPTIONS";
/** `path` normalised (server/request-path.ts): `/%61dmin` and `/ADMIN` are the admin too, as the router sees them. */
const isGuardedAdminPath = (path: string) => isAdminPath(path) && !OPEN_ADMIN_PATHS.has(path);

/**
 * Cheap first look at a request, on every one: false when it is surely let through (a read, a
 * same-site write outside /admin), true when `refuseWrite` must decide.
 */
function mayRefuseWrite({ method, path, fetchSite, origin, referer, host, forwardedHost }: WriteSummary): boolean {
  if (isRead(method)) return false;
  return (
    isGuardedAdminPath(path) ||
    isCrossSiteWrite({ method, fetchSite, origin, referer, host, forwardedHost, siteHost: new URL(getEnv().SITE_URL).host })
  );
}

/**
 * Refusals answered before Remix: they must be a clean 403 whatever route is hit.
 * - Remix 2.17 checks cross-site writes itself on page routes, but throws (a 500) before our action runs.
 * - A stranger's write to a nested admin tab would otherwise render the error page through the
 *   admin layout, whose loader redirects to the login page (303) instead of refusing.
 * Route loaders and actions still check the role themselves; this is the first line, not the only one.
 */
async function refuseWrite(request: Request): Promise<Response | null> {
  if (isRead(request.method)) return null;
  try {
    await assertSameOrigin(request);
  } catch (refusal) {
    if (refusal instanceof Response) return refusal;
    throw refusal;
  }
  if (!isGuardedAdminPath(normalizePath(new URL(request.url).pathname)) || (await getOptionalAdmin(request))) return null;
  return forbidden(request, "admin:auth.required");
}
