/** The site's pages as its own sitemap lists them, for tests that walk every public page. */

export const LANGUAGES = ["fr", "en", "de", "es"] as const;

/** `path` in `lng`: French on the bare path, the others with `?lng=` (decision 220). */
export function withLng(path: string, lng: string): string {
  return lng === "fr" ? path : `${path}${path.includes("?") ? "&" : "?"}lng=${lng}`;
}

/** Each page of the server's sitemap once (its French, bare path); `site` is the server's SITE_URL. */
export async function sitemapPaths(serverUrl: string, site: string): Promise<string[]> {
  const xml = await (await fetch(`${serverUrl}/sitemap.xml`)).text();
  const locs = [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!.replaceAll("&amp;", "&"));
  return [
    ...new Set(locs.filter((loc) => loc.startsWith(site) && !/[?&]lng=/.test(loc)).map((loc) => loc.slice(site.length) || "/")),
  ];
}
