import { describe, expect, it } from "vitest";
import { buildRobotsTxt, buildSitemapXml, escapeXml, newest } from "~/features/community/sitemap";

describe("sitemap builder", () => {
  it("escapes XML special characters", () => {
    expect(escapeXml(`a&b<c>"d"'e'`)).toBe("a&amp;b&lt;c&gt;&quot;d&quot;&apos;e&apos;");
  });

  it("writes absolute URLs, a date-only lastmod, changefreq, priority and hreflang alternates", () => {
    const xml = buildSitemapXml("https://parrainly.test", [
      { path: "/a&b", lastmod: "2026-05-01T10:20:30.000Z", changefreq: "weekly", priority: 0.8 },
    ]);
    expect(
      xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'),
    ).toBe(true);
    expect(xml).toContain("<loc>https://parrainly.test/a&amp;b</loc>");
    expect(xml).toContain("<lastmod>2026-05-01</lastmod>");
    expect(xml).toContain("<changefreq>weekly</changefreq>");
    expect(xml).toContain("<priority>0.8</priority>");
    expect(xml).toContain('<xhtml:link rel="alternate" hreflang="fr" href="https://parrainly.test/a&amp;b"/>');
    expect(xml).toContain('<xhtml:link rel="alternate" hreflang="de" href="https://parrainly.test/a&amp;b?lng=de"/>');
    expect(xml).toContain('<xhtml:link rel="alternate" hreflang="x-default" href="https://parrainly.test/a&amp;b"/>');
    // One <url> per language version, each with the five alternates.
    expect(xml.match(/<url>/g)).toHaveLength(4);
    for (const loc of ["", "?lng=en", "?lng=de", "?lng=es"])
      expect(xml).toContain(`<loc>https://parrainly.test/a&amp;b${loc}</loc>`);
    expect(xml.match(/hreflang=/g)).toHaveLength(20);
    expect(xml.trim().endsWith("</urlset>")).toBe(true);
  });

  it("robots.txt allows all, keeps crawlers out of /admin and declares the sitemap", () => {
    expect(buildRobotsTxt("https://parrainly.test")).toBe(
      "User-agent: *\nAllow: /\nDisallow: /admin\n\nSitemap: https://parrainly.test/sitemap.xml\n",
    );
  });

  it("newest picks the latest ISO date and ignores nulls", () => {
    expect(newest("2025-01-01", null, "2026-02-01T00:00:00Z", undefined, "2025-12-31")).toBe("2026-02-01T00:00:00Z");
    expect(newest("2025-01-01")).toBe("2025-01-01");
  });
});
