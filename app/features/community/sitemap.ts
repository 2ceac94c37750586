import { SUPPORTED_LANGUAGES } from "~/i18n/config";
import { languageUrl } from "~/utils/meta";

/** Pure sitemap and robots builders (sitemaps.org 0.9 with xhtml hreflang alternates). */

export type ChangeFreq = "always" | "hourly" | "daily" | "weekly" | "monthly" | "yearly" | "never";

/**
 * How a page's route lists it in the sitemap (`handle.sitemap`): `lastmod` is a fixed date
 * (`YYYY-MM-DD`, when its text last changed) or the newest change of what it shows.
 */
export interface SitemapHandle {
  changefreq: ChangeFreq;
  priority: number;
  lastmod: "content" | "suggestions" | "partnerships" | `${number}-${number}-${number}`;
}

export interface SitemapEntry {
  /** Path on the site, starting with '/'. */
  path: string;
  /** ISO date or date-time; written as YYYY-MM-DD. */
  lastmod: string;
  changefreq: ChangeFreq;
  priority: number;
}

export function escapeXml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!);
}

/**
 * Every language version of a page is its own `<url>` (French on the bare path, the others with
 * `?lng=xx`), each listing the whole set of alternates plus x-default (the bare path).
 */
export function buildSitemapXml(siteUrl: string, entries: SitemapEntry[]): string {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
  ];
  for (const entry of entries) {
    const url = `${siteUrl}${entry.path}`;
    const alternates = SUPPORTED_LANGUAGES.map(
      (lng) => `    <xhtml:link rel="alternate" hreflang="${lng}" href="${escapeXml(languageUrl(url, lng))}"/>`,
    );
    alternates.push(`    <xhtml:link rel="alternate" hreflang="x-default" href="${escapeXml(url)}"/>`);
    for (const lng of SUPPORTED_LANGUAGES) {
      lines.push("  <url>");
      lines.push(`    <loc>${escapeXml(languageUrl(url, lng))}</loc>`);
      lines.push(`    <lastmod>${entry.lastmod.slice(0, 10)}</lastmod>`);
      lines.push(`    <changefreq>${entry.changefreq}</changefreq>`);
      lines.push(`    <priority>${entry.priority.toFixed(1)}</priority>`);
      lines.push(...alternates);
      lines.push("  </url>");
    }
  }
  lines.push("</urlset>");
  return `${lines.join("\n")}\n`;
}

export function buildRobotsTxt(siteUrl: string): string {
  return ["User-agent: *", "Allow: /", "Disallow: /admin", "", `Sitemap: ${siteUrl}/sitemap.xml`, ""].join("\n");
}

/** The newest of some ISO timestamps (nulls ignored), or the fallback. */
export function newest(fallback: string, ...dates: Array<string | null | undefined>): string {
  return dates.reduce<string>((max, d) => (d && d > max ? d : max), fallback);
}
