import type { RequestHandler } from "express";
import { getSessionUser } from "~db/repositories/sessions.server";
import { adminSessionStorage } from "~/utils/session.server";
import de from "../app/locales/de/common.json";
import en from "../app/locales/en/common.json";
import es from "../app/locales/es/common.json";
import fr from "../app/locales/fr/common.json";
import deAdmin from "../app/locales/de/admin.json";
import enAdmin from "../app/locales/en/admin.json";
import esAdmin from "../app/locales/es/admin.json";
import frAdmin from "../app/locales/fr/admin.json";

/**
 * Refusals answered before Remix: they must be a clean 403 whatever route is hit.
 * - Remix 2.17 checks cross-site writes itself on page routes, but throws (a 500) before our action runs.
 * - A stranger's write to a nested admin tab would otherwise render the error page through the
 *   admin layout, whose loader redirects to the login page (303) instead of refusing.
 * Route loaders and actions still check the role themselves; this is the first line, not the only one.
 */
const TEXTS = {
  fr: { origin: fr.errors.forbiddenOrigin, admin: frAdmin.auth.required },
  en: { origin: en.errors.forbiddenOrigin, admin: enAdmin.auth.required },
  de: { origin: de.errors.forbiddenOrigin, admin: deAdmin.auth.required },
  es: { origin: es.errors.forbiddenOrigin, admin: esAdmin.auth.required },
};
type Lang = keyof typeof TEXTS;
const isLang = (v: unknown): v is Lang => typeof v === "string" && v in TEXTS;

/** The visitor's language, in the app's order: ?lng, cookie, Accept-Language, French. */
function languageOf(req: Parameters<RequestHandler>[0]): Lang {
  if (isLang(req.query.lng)) return req.query.lng;
  const cookie = /(?:^|;\s*)language=([a-z]{2})/.exec(req.get("cookie") ?? "")?.[1];
  if (isLang(cookie)) return cookie;
  for (const part of (req.get("accept-language") ?? "").split(",")) {
    const tag = part.trim().slice(0, 2).toLowerCase();
    if (isLang(tag)) return tag;
  }
  return "fr";
}

const isRead = (method: string) => method === "GET" || method === "HEAD" || method === "OPTIONS";

export function refuseCrossSiteWrites(siteHost: string): RequestHandler {
  return (req, res, next) => {
    if (isRead(req.method)) return next();
    const source = req.get("origin") ?? req.get("referer");
    if (!source) return next(); // browsers send Origin on every form POST; no header is not a cross-site browser request
    let host: string | null = null;
    try {
      host = source === "null" ? null : new URL(source).host;
    } catch {
      host = null;
    }
    if (host && (host === req.get("host") || host === siteHost)) return next();
    res.status(403).type("text/plain; charset=utf-8").send(TEXTS[languageOf(req)].origin);
  };
}

const OPEN_ADMIN_PATHS = new Set(["/admin/login", "/admin/login.data", "/admin/logout", "/admin/logout.data"]);

export function refuseAnonymousAdminWrites(): RequestHandler {
  return async (req, res, next) => {
    if (isRead(req.method) || !(req.path === "/admin" || req.path.startsWith("/admin/") || req.path === "/admin.data"))
      return next();
    if (OPEN_ADMIN_PATHS.has(req.path)) return next();
    try {
      const session = await adminSessionStorage().getSession(req.get("cookie"));
      const sessionId = session.get("sessionId");
      const user = typeof sessionId === "string" ? await getSessionUser(sessionId) : null;
      if (user?.isAdmin) return next();
    } catch (error) {
      return next(error);
    }
    res.status(403).type("text/plain; charset=utf-8").send(TEXTS[languageOf(req)].admin);
  };
}
