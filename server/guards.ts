import type { Request as ExpressRequest, RequestHandler } from "express";
import type { AppHooks } from "./app-hooks";
import { normalizedPathOf } from "./request-path";

/**
 * Writes the app refuses before Remix sees them (cross-site, a stranger's write under /admin):
 * the app decides and words the 403 (AppHooks.refuseWrite); reads pass untouched.
 */
export function refuseForbiddenWrites(hooks: () => Promise<AppHooks>): RequestHandler {
  return (req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return next();
    hooks()
      .then((app) => {
        const summary = {
          method: req.method,
          path: normalizedPathOf(req),
          fetchSite: req.get("sec-fetch-site"),
          origin: req.get("origin"),
          referer: req.get("referer"),
          host: req.get("host"),
          forwardedHost: req.get("x-forwarded-host"),
        };
        return app.mayRefuseWrite(summary) ? app.refuseWrite(headersOnly(req)) : null;
      })
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
