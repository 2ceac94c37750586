import { getT } from "~/i18n/i18next.server";
import { getEnv } from "./env.server";
import { failure } from "./responses.server";

/**
 * The one same-origin rule for writes: a request that is not GET/HEAD/OPTIONS is cross-site when
 * its Origin names another host than the request's Host (and than the first `X-Forwarded-Host`
 * entry, when there is one), or, without Origin, when its Referer names another host than the
 * request's Host or SITE_URL's. The Origin part is Remix's own check on page actions, which throws
 * (a 500) where this answers a clean 403 first: any write this lets through, Remix lets through.
 * So is one the browser itself marks as such in `Sec-Fetch-Site`, sent even when Origin is not
 * (anything but `same-origin`, or `none` for a request the user typed; `same-site` is a sibling host).
 * No header at all is not a browser's cross-site request (browsers send Origin on every form POST);
 * `Origin: null` (sandboxed frames, some redirects) is refused.
 */
export function isCrossSiteWrite(input: {
  method: string;
  fetchSite?: string | null;
  origin: string | null | undefined;
  referer: string | null | undefined;
  host: string | null | undefined;
  /** `X-Forwarded-Host` as sent. */
  forwardedHost?: string | null;
  siteHost: string;
}): boolean {
  if (input.method === "GET" || input.method === "HEAD" || input.method === "OPTIONS") return false;
  if (input.fetchSite && input.fetchSite !== "same-origin" && input.fetchSite !== "none") return true;
  const source = input.origin ?? input.referer;
  if (!source) return false;
  let host: string | null = null;
  try {
    host = source === "null" ? null : new URL(source).host;
  } catch {
    host = null;
  }
  if (!host) return true;
  if (input.origin != null) {
    const forwarded = input.forwardedHost?.split(",")[0]?.trim();
    return host !== input.host || (!!forwarded && host !== forwarded);
  }
  return host !== input.host && host !== input.siteHost;
}

/** Throws 403 (translated) for a cross-site write; every action that changes state runs behind it. */
export async function assertSameOrigin(request: Request): Promise<void> {
  const crossSite = isCrossSiteWrite({
    method: request.method,
    fetchSite: request.headers.get("Sec-Fetch-Site"),
    origin: request.headers.get("Origin"),
    referer: request.headers.get("Referer"),
    host: request.headers.get("Host") ?? new URL(request.url).host,
    forwardedHost: request.headers.get("X-Forwarded-Host"),
    siteHost: new URL(getEnv().SITE_URL).host,
  });
  if (crossSite) {
    const t = await getT(request, "common");
    throw failure(403, t("errors.forbiddenOrigin"));
  }
}
