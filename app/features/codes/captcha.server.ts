import { getSetting } from "~db/repositories/settings.server";
import { getEnv } from "~/utils/env.server";
import { readConsent } from "~/features/consent/consent.server";

export const CAPTCHA_FIELD = "g-recaptcha-response";

/**
 * The reCAPTCHA for this visitor (decision 323): `siteKey` when the admin configured one and the
 * visitor accepted Google's services in the banner; the widget and the check are on only then.
 * Without that consent Google's script is not loaded and the visitor's address is not sent to
 * Google: the honeypot and the per-address limit stand in (`off` says the captcha is configured
 * but left out for this visitor).
 */
export async function captchaFor(request: Request): Promise<{ siteKey: string | null; off: boolean }> {
  const key = (await getSetting("google_recaptcha_site_key")).trim();
  if (!key) return { siteKey: null, off: false };
  return readConsent(request) === "granted" ? { siteKey: key, off: false } : { siteKey: null, off: true };
}

/**
 * Google's siteverify protocol: POST form-encoded `secret`, `response` (and `remoteip`), answer
 * `{ success: boolean }`. Any failure (no secret configured, network, timeout, bad JSON) refuses:
 * a configured captcha that cannot be checked must not let spam through.
 */
export async function verifyCaptcha(token: string, remoteIp?: string): Promise<boolean> {
  const env = getEnv();
  if (!env.RECAPTCHA_SECRET_KEY) {
    console.error("captcha: google_recaptcha_site_key is set but RECAPTCHA_SECRET_KEY is not; refusing submissions");
    return false;
  }
  const body = new URLSearchParams({ secret: env.RECAPTCHA_SECRET_KEY, response: token });
  if (remoteIp && remoteIp !== "unknown") body.set("remoteip", remoteIp);
  try {
    const res = await fetch(env.RECAPTCHA_VERIFY_URL, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body,
      signal: AbortSignal.timeout(5000),
    });
    if (!res.ok) return false;
    const json = (await res.json()) as { success?: unknown };
    return json.success === true;
  } catch (error) {
    console.error("captcha: verification failed", error instanceof Error ? error.message : error);
    return false;
  }
}
