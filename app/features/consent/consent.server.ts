import { getSettings } from "~db/repositories/settings.server";
import { CONSENT_COOKIE, readCookie, type ConsentChoice } from "~/utils/cookies.server";
import { isPrivatePage } from "./analytics-tags";
import { analyticsConfig, hasTags } from "./tags";

export function readConsent(request: Request): ConsentChoice | null {
  const value = readCookie(request, CONSENT_COOKIE);
  return value === "granted" || value === "denied" ? value : null;
}

/**
 * The tags for this request: configured by the settings, only when the visitor said yes, and never
 * on a private page (isPrivatePage). `bannerNeeded`: something is configured (tags, or the share
 * form's captcha, which Google serves too), so the visitor is asked (and may change their mind).
 */
export async function analyticsForRequest(request: Request) {
  // The admin area is a tool, not an audience: no measurement, no ads there.
  const path = new URL(request.url).pathname;
  if (path === "/admin" || path.startsWith("/admin/") || path.startsWith("/admin.")) {
    return { active: null, bannerNeeded: false, answered: false };
  }
  const settings = await getSettings();
  const config = analyticsConfig(settings);
  const consent = readConsent(request);
  const configured = hasTags(config);
  return {
    active: configured && consent === "granted" && !isPrivatePage(path) ? config : null,
    bannerNeeded: configured || settings.google_recaptcha_site_key.trim() !== "",
    answered: consent !== null,
  };
}
