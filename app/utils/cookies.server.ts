import { createCookie, createCookieSessionStorage } from "@remix-run/node";
import { LANGUAGE_COOKIE } from "~/i18n/config";
import { getEnv } from "./env.server";
import { THEME_COOKIE } from "./theme";

/**
 * Every cookie the site sets is defined here: its name, its attributes, signed or plain.
 * - `language`, `theme`: plain values (`en`, `light`), readable by people, tests and the client script.
 * - `client_id`: a random id, httpOnly, only ever stored hashed (votes).
 * - `draws`: the draws this browser made in the last 24 hours, each signed, httpOnly, a day: only the
 *   browser that drew may answer "did it work?" (app/features/trust/draw-token.server.ts).
 * - `__session` (admin), `toast` (one-shot messages) and `owner_link` (a sharer's private link, on its
 *   way to the one page that shows it): signed with SESSION_SECRET, httpOnly.
 * - `consent`: `granted` or `denied`, the answer to the analytics and ads banner (kept 6 months).
 * - `admin_device`: the account a browser has signed in to before, signed, httpOnly, Path=/admin, a
 *   year (login-throttle.server.ts: that browser is never slowed by others' failed sign-ins).
 * All: Path=/ (but `admin_device`), SameSite=Lax, Secure in production.
 */
export { LANGUAGE_COOKIE };
export { THEME_COOKIE };
export const CLIENT_ID_COOKIE = "client_id";
export const CONSENT_COOKIE = "consent";
export const DRAWS_COOKIE = "draws";
/** The cookies an anonymous page's bytes depend on (the page cache keys on them: page-cache.server.ts). */
export const PAGE_COOKIES = [LANGUAGE_COOKIE, THEME_COOKIE, CONSENT_COOKIE] as const;
const ADMIN_SESSION_COOKIE = "__session";
const TOAST_COOKIE = "toast";
const OWNER_LINK_COOKIE = "owner_link";
const ADMIN_DEVICE_COOKIE = "admin_device";

const ONE_YEAR = 60 * 60 * 24 * 365;
const isSecure = () => getEnv().NODE_ENV === "production";

/** The value of a plain cookie, or null. */
export function readCookie(request: Request, name: string): string | null {
  const header = request.headers.get("Cookie");
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}

function plainCookie(name: string, value: string, { httpOnly = false, maxAge = ONE_YEAR } = {}): string {
  const flags = `${httpOnly ? "; HttpOnly" : ""}; SameSite=Lax${isSecure() ? "; Secure" : ""}`;
  return `${name}=${encodeURIComponent(value)}; Path=/; Max-Age=${maxAge}${flags}`;
}

/** Set-Cookie for a visitor's language or theme choice (kept a year). */
export function preferenceCookie(name: typeof LANGUAGE_COOKIE | typeof THEME_COOKIE, value: string): string {
  return plainCookie(name, value);
}

export type ConsentChoice = "granted" | "denied";
const SIX_MONTHS = 60 * 60 * 24 * 182;

export function isConsentAnswer(value: unknown): value is ConsentChoice | "reset" {
  return value === "granted" || value === "denied" || value === "reset";
}

/** Set-Cookie for the analytics and ads answer; `reset` deletes it, so the banner asks again. */
export function consentCookie(choice: ConsentChoice | "reset"): string {
  const secure = isSecure() ? "; Secure" : "";
  if (choice === "reset") return `${CONSENT_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax${secure}`;
  return `${CONSENT_COOKIE}=${choice}; Path=/; Max-Age=${SIX_MONTHS}; SameSite=Lax${secure}`;
}

/** Set-Cookie for the draws a browser may answer about (a day, never readable by scripts). */
export function drawsCookie(value: string): string {
  return plainCookie(DRAWS_COOKIE, value, { httpOnly: true, maxAge: 60 * 60 * 24 });
}

/** Set-Cookie for the vote identity cookie (kept a year, never readable by scripts). */
export function clientIdCookie(value: string): string {
  return plainCookie(CLIENT_ID_COOKIE, value, { httpOnly: true });
}

function signedStorage<Data, Flash>(name: string, maxAgeSeconds?: number) {
  const env = getEnv();
  return createCookieSessionStorage<Data, Flash>({
    cookie: {
      name,
      path: "/",
      httpOnly: true,
      sameSite: "lax",
      secure: env.NODE_ENV === "production",
      secrets: [env.SESSION_SECRET],
      ...(maxAgeSeconds ? { maxAge: maxAgeSeconds } : {}),
    },
  });
}

/** The admin's signed cookie: it only carries the id of a row in the sessions table. */
export type AdminSessionData = { sessionId: string };
export function adminSessionCookieStorage(maxAgeSeconds: number) {
  return signedStorage<AdminSessionData, never>(ADMIN_SESSION_COOKIE, maxAgeSeconds);
}

/** The signed one-shot cookie that carries a toast across a redirect (a browser session long). */
export function toastCookieStorage<Flash>() {
  return signedStorage<Record<string, never>, Flash>(TOAST_COOKIE);
}

/**
 * The signed cookie that carries a new owner link from the submit to the thank-you step, kept there
 * until the sharer says they saved it: an hour at most (a shared computer's next user).
 */
export function ownerLinkCookieStorage<Data>() {
  return signedStorage<Data, never>(OWNER_LINK_COOKIE, 3600);
}

let deviceCookie: ReturnType<typeof createCookie> | undefined;
/** The signed cookie naming the admin account this browser signed in to before. */
export function adminDeviceCookie() {
  const env = getEnv();
  deviceCookie ??= createCookie(ADMIN_DEVICE_COOKIE, {
    path: "/admin",
    httpOnly: true,
    sameSite: "lax",
    secure: env.NODE_ENV === "production",
    secrets: [env.SESSION_SECRET],
    maxAge: ONE_YEAR,
  });
  return deviceCookie;
}

/** True when the request carries a cookie of that name (cheap check before unsigning). */
export function hasCookie(request: Request, name: "admin-session" | "toast" | "owner-link" | "admin-device"): boolean {
  const cookieName = {
    "admin-session": ADMIN_SESSION_COOKIE,
    toast: TOAST_COOKIE,
    "owner-link": OWNER_LINK_COOKIE,
    "admin-device": ADMIN_DEVICE_COOKIE,
  }[name];
  return request.headers.get("Cookie")?.includes(`${cookieName}=`) ?? false;
}
