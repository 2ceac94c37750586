import { cachedRead } from "~db/read-cache.server";
import { latestDates, listSitemapPlatforms } from "~db/repositories/sitemap.server";
import { indexablePages } from "~/features/community/indexable-pages.server";
import { buildSitemapXml, newest, type SitemapEntry, type SitemapHandle } from "~/features/community/sitemap";
import { getEnv } from "~/utils/env.server";
import { withDatabaseNet } from "~/utils/failures.server";

const EPOCH = "2025-01-01";

/**
 * Every page whose route has `handle.sitemap`, each in four languages; `{slug}` pages once per
 * active platform. Kept a minute like the other published figures (decision 293): 352 KB built from
 * a read per platform (7 ms on the scale data set) on each crawler's request otherwise.
 */
export const loader = withDatabaseNet(async function loader() {
  const xml = await cachedRead(`published:sitemap:${getEnv().SITE_URL}`, "published", buildSitemap);
  return new Response(xml, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=300" },
  });
});

async function buildSitemap(): Promise<string> {
  const [platforms, dates] = await Promise.all([listSitemapPlatforms(), latestDates()]);
  const content = newest(EPOCH, ...platforms.flatMap((p) => [p.created_at, p.last_code_at]));
  const lastmodOf = (lastmod: SitemapHandle["lastmod"]) =>
    lastmod === "content"
      ? content
      : lastmod === "suggestions"
        ? newest(content, dates.suggestion)
        : lastmod === "partnerships"
          ? newest(content, dates.partnership)
          : lastmod;
  const entries: SitemapEntry[] = [];
  const perPlatform: SitemapEntry[] = [];
  for (const page of indexablePages()) {
    if (!page.pattern.includes("{slug}")) {
      entries.push({
        path: page.pattern,
        lastmod: lastmodOf(page.lastmod),
        changefreq: page.changefreq,
        priority: page.priority,
      });
    }
  }
  const platformPages = indexablePages().filter((page) => page.pattern.includes("{slug}"));
  for (const p of platforms) {
    const lastmod = newest(p.created_at, p.last_code_at);
    for (const page of platformPages) {
      const path = page.pattern.replace("{slug}", encodeURIComponent(p.slug));
      perPlatform.push({ path, lastmod, changefreq: page.changefreq, priority: page.priority });
    }
  }
  return buildSitemapXml(getEnv().SITE_URL, [...entries, ...perPlatform]);
}
