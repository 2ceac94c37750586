import { getEnv } from "./env.server";

/**
 * A local path to go back to after a form, never another site. The value is resolved the way a
 * browser would resolve the Location header, against the site's own origin, and kept only when it
 * stays there: `//x`, `/\x`, `https:x` and `/<tab>/x` (browsers drop tabs and newlines in URLs)
 * all leave, and so does whatever comes out of the resolution starting with `//` or `/\` (`/.//x`,
 * `/..//x`, `/%2e//x`: dot segments are removed, and `//x` alone would name another host). Control characters are refused outright: they are never in a path we link to, and
 * a newline would not even fit in a header.
 */
export function safeRedirectPath(value: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  // eslint-disable-next-line no-control-regex
  if (typeof value !== "string" || !value.startsWith("/") || /[\u0000-\u001f\u007f]/.test(value)) return fallback;
  const origin = new URL(getEnv().SITE_URL).origin;
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return fallback;
  }
  if (url.origin !== origin || /^\/[/\\]/.test(url.pathname)) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}
