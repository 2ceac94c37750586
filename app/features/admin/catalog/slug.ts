/** Slugs of new platforms: what /{slug} and /{slug}/get-code are served under. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const MAX_SLUG_LENGTH = 60;

/**
 * Every first path segment the site uses, now or by a route another part of the site adds: a
 * platform there would be unreachable or shadow a page. A unit test walks app/routes and fails when
 * a route's first segment is missing here.
 */
export const RESERVED_SLUGS = new Set([
  "404",
  "ads.txt",
  "apple-touch-icon.png",
  "admin",
  "api",
  "assets",
  "events",
  "fairness",
  "favicon-48.png",
  "favicon.svg",
  "feeds",
  "game",
  "healthz",
  "icon-192.png",
  "icon-512.png",
  "llms.txt",
  "my-code",
  "partnerships",
  "platforms",
  "preferences",
  "privacy",
  "random",
  "resources",
  "robots.txt",
  "site.webmanifest",
  "sitemap-audit",
  "sitemap-audit.json",
  "ads.txt",
  "sitemap.xml",
  "robots.txt",
  "healthz",
  "preferences",
  "events",
  "game",
  "404",
  "fairness",
  "feeds",
  "my-code",
  "submit",
  "suggest-platform",
  "terms",
  "uploads",
]);

/** Lower-case, accents removed, anything else than letters and digits to single hyphens, trimmed. */
export function deriveSlug(name: string): string {
  return name
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/-+$/g, "");
}

/** Characters as a person counts them (an emoji with modifiers is one). */
export function graphemeCount(value: string): number {
  const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
  let count = 0;
  for (const _ of segmenter.segment(value)) count++;
  return count;
}
