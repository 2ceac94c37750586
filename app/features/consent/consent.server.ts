import { getSettings } from "~db/repositories/settings.server";
import { readCookie } from "~/utils/cookies.server";
import { analyticsConfig, hasTags } from "./tags";

/** The visitor's answer to the analytics and ads banner, kept 6 months (then asked again). */
export const CONSENT_COOKIE = "consent";
export type ConsentChoice = "granted" | "denied";
const SIX_MONTHS = 60 * 60 * 24 * 182;

export function readConsent(request: Request): ConsentChoice | null {
  const value = readCookie(request, CONSENT_COOKIE);
  return value === "granted" || value === "denied" ? value : null;
}

export function consentCookie(choice: ConsentChoice | "reset", secure: boolean): string {
  const maxAge = choice === "reset" ? 0 : SIX_MONTHS;
  const value = choice === "reset" ? "" : choice;
  return `${CONSENT_COOKIE}=${value}; Path=/; Max-Age=${maxAge}; SameSite=Lax${secure ? "; Secure" : ""}`;
}

export function isConsentAnswer(value: unknown): value is ConsentChoice | "reset" {
  return value === "granted" || value === "denied" || value === "reset";
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
