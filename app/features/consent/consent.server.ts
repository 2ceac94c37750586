import { getSettings } from "~db/repositories/settings.server";
import { CONSENT_COOKIE, readCookie, type ConsentChoice } from "~/utils/cookies.server";
import { analyticsConfig, hasTags } from "./tags";

function readConsent(request: Request): ConsentChoice | null {
  const value = readCookie(request, CONSENT_COOKIE);
  return value === "granted" || value === "denied" ? value : null;
}

/**
 * The tags for this request: configured by the settings, and only when the visitor said yes.
 * `bannerNeeded`: something is configured, so the visitor is asked (and may change their mind).
 */
export async function analyticsForRequest(request: Request) {
  // The admin area is a tool, not an audience: no measurement, no ads there.
  const path = new URL(request.url).pathname;
  if (path === "/admin" || path.startsWith("/admin/") || path.startsWith("/admin.")) {
    return { active: null, bannerNeeded: false, answered: false };
  }
  const config = analyticsConfig(await getSettings());
  const consent = readConsent(request);
  const configured = hasTags(config);
  return {
    active: configured && consent === "granted" ? config : null,
    bannerNeeded: configured,
    answered: consent !== null,
  };
}
