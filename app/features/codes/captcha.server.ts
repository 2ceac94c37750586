import { getSetting } from "~db/repositories/settings.server";
import { getEnv } from "~/utils/env.server";

export const CAPTCHA_FIELD = "g-recaptcha-response";

/** The reCAPTCHA site key when the admin configured one; the widget and the check are on only then. */
export async function captchaSiteKey(): Promise<string | null> {
  const key = (await getSetting("google_recaptcha_site_key")).trim();
  return key || null;
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
