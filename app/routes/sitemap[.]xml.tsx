import { latestDates, listSitemapPlatforms } from "~db/repositories/sitemap.server";
import { buildSitemapXml, newest, type SitemapEntry } from "~/features/community/sitemap";
import { getEnv } from "~/utils/env.server";

/** When the texts of /privacy and /terms last changed (shown on those pages too). */
const LEGAL_UPDATED = "2026-11-22";
const EPOCH = "2025-01-01";
/** When the sitemap audit page last changed. */
const AUDIT_PAGE_UPDATED = "2026-11-23";

export async function loader() {
  const [platforms, dates] = await Promise.all([listSitemapPlatforms(), latestDates()]);
  const content = newest(EPOCH, ...platforms.flatMap((p) => [p.created_at, p.last_code_at]));
  const entries: SitemapEntry[] = [
    { path: "/", lastmod: content, changefreq: "daily", priority: 1.0 },
    { path: "/submit", lastmod: content, changefreq: "weekly", priority: 0.8 },
    { path: "/random", lastmod: content, changefreq: "daily", priority: 0.7 },
    { path: "/suggest-platform", lastmod: newest(content, dates.suggestion), changefreq: "daily", priority: 0.6 },
    { path: "/partnerships", lastmod: newest(content, dates.partnership), changefreq: "weekly", priority: 0.6 },
    { path: "/fairness", lastmod: content, changefreq: "daily", priority: 0.5 },
    { path: "/privacy", lastmod: LEGAL_UPDATED, changefreq: "yearly", priority: 0.3 },
    { path: "/terms", lastmod: LEGAL_UPDATED, changefreq: "yearly", priority: 0.3 },
    { path: "/sitemap-audit", lastmod: AUDIT_PAGE_UPDATED, changefreq: "monthly", priority: 0.4 },
  ];
  for (const p of platforms) {
    const lastmod = newest(p.created_at, p.last_code_at);
    const slug = encodeURIComponent(p.slug);
    entries.push({ path: `/${slug}`, lastmod, changefreq: "daily", priority: 0.9 });
    entries.push({ path: `/${slug}/get-code`, lastmod, changefreq: "daily", priority: 0.8 });
  }
  return new Response(buildSitemapXml(getEnv().SITE_URL, entries), {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=300" },
  });
}
