import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRawDb, type RawDb } from "../support/fixtures";
import { startServer, type RunningServer } from "../support/server";

let server: RunningServer;
let raw: RawDb;
beforeAll(async () => {
  server = await startServer({ SEED_DEMO: "1", SITE_URL: "https://parrainly.test" });
  raw = openRawDb(server.dbFile);
});
afterAll(async () => {
  await raw?.close();
  await server?.stop();
});

describe("public pages over HTTP (no JavaScript)", () => {
  it("home: every active homepage platform is a link, Organization JSON-LD, promo", async () => {
    const html = await (await fetch(server.url)).text();
    const active = await raw.all<{ slug: string }>("select slug from platforms where is_active = 1 and show_in_homepage = 1");
    expect(active.length).toBeGreaterThanOrEqual(6);
    const list = /data-testid="platform-list"[^]*?<\/ul>/.exec(html)![0];
    for (const { slug } of active) expect(list).toContain(`href="/${slug}"`);
    expect(html).toContain('"@type":"Organization"');
    expect(html).toContain("100% Gratuit");
    // The price tracker may pay a commission: a partner's link (as the terms say of affiliate links).
    expect(html).toContain('href="https://keepa.com/" target="_blank" rel="sponsored noopener noreferrer"');
    expect(html).toContain("Autres remises");
    expect(html).toContain('href="/partnerships"');
    // The legal notice (publisher, contact, host) one click away from every page.
    expect(html).toMatch(/<a [^>]*href="\/privacy#legal-notice"[^>]*>Mentions légales<\/a>/);
    const privacy = await (await fetch(`${server.url}/privacy`)).text();
    expect(privacy).toContain('id="legal-notice"');
    expect(privacy).toContain('data-testid="legal-publisher"');
  });

  it("the share form's platform menu sorts names without regard to case (iGraal among the I's)", async () => {
    const html = await (await fetch(`${server.url}/submit`)).text();
    const select = /<select[^>]*name="platform"[^]*?<\/select>/.exec(html)![0];
    const slugs = [...select.matchAll(/<option value="([^"]+)"/g)].map((m) => m[1]);
    expect(slugs.indexOf("igraal")).toBeGreaterThan(slugs.indexOf("holy"));
    expect(slugs.indexOf("igraal")).toBeLessThan(slugs.indexOf("n26"));
  });

  it("a platform page offers 'Get a code' only when it has a code to draw", async () => {
    const slug = `empty-${Date.now()}`;
    await raw.run(
      `insert into platforms (name, slug, description, gradient_from, gradient_to, hosts, referral_url_template, url_rules, created_at)
       values (?, ?, 'x', '#1d4ed8', '#6d28d9', ?, ?, '[]', '2026-01-01T00:00:00.000Z')`,
      `Empty ${slug}`,
      slug,
      `${slug}.example`,
      `https://${slug}.example/r/{code}`,
    );
    const empty = await (await fetch(`${server.url}/${slug}`)).text();
    expect(empty).toContain('data-testid="available-count"');
    expect(empty).not.toContain('data-testid="get-code-link"');
    expect(empty).toContain(`href="/submit?platform=${slug}"`);
    const stocked = await (await fetch(`${server.url}/tesla`)).text();
    expect(stocked).toContain('data-testid="get-code-link"');
  });

  it("home: empty state when no platform is shown", async () => {
    await raw.run("update platforms set show_in_homepage = 0");
    try {
      const html = await (await fetch(server.url)).text();
      expect(html).toContain("Aucune plateforme disponible pour le moment.");
    } finally {
      await raw.run("update platforms set show_in_homepage = 1");
    }
  });

  it("home: at most 24 platforms and 12 partners, the admin's first, however large the catalogue", async () => {
    for (let i = 0; i < 40; i++)
      await raw.run(
        `insert into platforms (name, slug, description, gradient_from, gradient_to, hosts, referral_url_template, url_rules, display_order, show_in_homepage, created_at)
         values (?, ?, 'x', '#1d4ed8', '#6d28d9', ?, ?, '[]', ?, 1, '2026-01-01T00:00:00.000Z')`,
        `Cap ${i}`,
        `cap-${i}`,
        `cap-${i}.example`,
        `https://cap-${i}.example/r/{code}`,
        i % 3,
      );
    for (let i = 0; i < 20; i++)
      await raw.run(
        "insert into partnerships (name, url, display_order, created_at) values (?, ?, ?, '2026-01-01T00:00:00.000Z')",
        `Cap partner ${i}`,
        `https://cap-partner-${i}.example/`,
        i % 3,
      );
    try {
      const html = await (await fetch(server.url, { headers: { cookie: "unknown=1" } })).text();
      const list = /data-testid="platform-list"[^]*?<\/ul>/.exec(html)![0];
      const slugs = [...list.matchAll(/data-testid="platform-slide"[^]*?href="\/([^"?]+)"/g)].map((m) => m[1]);
      const flagged = await raw.all<{ slug: string }>(
        "select slug from platforms where is_active = 1 and show_in_homepage = 1 order by display_order, name",
      );
      expect(flagged.length).toBeGreaterThan(40);
      expect(slugs).toEqual(flagged.slice(0, 24).map((p) => p.slug));
      const partners = [...html.matchAll(/data-testid="partner" data-partner-id="(\d+)"/g)].map((m) => Number(m[1]));
      const active = await raw.all<{ id: number }>("select id from partnerships where is_active = 1 order by display_order, id");
      expect(active.length).toBeGreaterThan(20);
      expect(partners).toEqual(active.slice(0, 12).map((p) => p.id));
      expect(html).toContain('href="/partnerships"');
      expect(html).toContain('href="/platforms"');
    } finally {
      await raw.run("delete from platforms where slug like 'cap-%'");
      await raw.run("delete from partnerships where name like 'Cap partner %'");
    }
  });

  it("platforms: 48 a page by name, plain links to the other pages keeping the search, however large the catalogue", async () => {
    for (let i = 0; i < 60; i++)
      await raw.run(
        `insert into platforms (name, slug, description, gradient_from, gradient_to, hosts, referral_url_template, url_rules, created_at)
         values (?, ?, 'x', '#1d4ed8', '#6d28d9', ?, ?, '[]', '2026-01-01T00:00:00.000Z')`,
        `Pagé ${String(i).padStart(2, "0")}`,
        `page-${i}`,
        `page-${i}.example`,
        `https://page-${i}.example/r/{code}`,
      );
    try {
      const items = (html: string) => [...html.matchAll(/data-testid="platform-item" data-slug="([^"]+)"/g)].map((m) => m[1]);
      const byName = (await raw.all<{ slug: string }>("select slug from platforms where is_active = 1 order by name")).map(
        (r) => r.slug,
      );
      expect(byName.length).toBeGreaterThan(60);
      const first = await (await fetch(`${server.url}/platforms`)).text();
      expect(items(first)).toEqual(byName.slice(0, 48));
      const link = (rel: string, href: string) =>
        new RegExp(`<a (?=[^>]*href="${href.replace(/[?]/g, "\\?")}")(?=[^>]*rel="${rel}")`);
      expect(first).toMatch(link("next", "/platforms?page=2"));
      expect(first).not.toContain('rel="prev"');
      const second = await (await fetch(`${server.url}/platforms?page=2`)).text();
      expect(items(second)).toEqual(byName.slice(48, 96));
      expect(second).toMatch(link("prev", "/platforms"));
      // Past the last page, or not a page number: the last page, the first.
      expect(items(await (await fetch(`${server.url}/platforms?page=999`)).text())).toEqual(items(second));
      expect(items(await (await fetch(`${server.url}/platforms?page=abc`)).text())).toEqual(items(first));
      // The search (accents ignored) pages too, and its links keep it.
      const searched = await (await fetch(`${server.url}/platforms?q=page`)).text();
      expect(items(searched)).toHaveLength(48);
      expect(searched).toMatch(link("next", "/platforms?q=page&amp;page=2"));
      expect(searched).toContain("60 plateformes trouvées");
      expect(items(await (await fetch(`${server.url}/platforms?q=page&page=2`)).text())).toHaveLength(12);
    } finally {
      await raw.run("delete from platforms where slug like 'page-%'");
    }
  });

  it("partnerships: demo partners are sponsored links in a new tab, BreadcrumbList JSON-LD", async () => {
    const html = await (await fetch(`${server.url}/partnerships`)).text();
    for (const name of ["Keepa", "Poulpeo", "Dealabs", "Ma Reduc"]) expect(html).toContain(name);
    expect(html).toMatch(/href="https:\/\/www\.poulpeo\.com\/" target="_blank" rel="sponsored noopener noreferrer"/);
    expect(html).toContain('"@type":"BreadcrumbList"');
    expect(html).toContain("Voir les codes");
  });

  it("demo partners describe themselves in the visitor's language", async () => {
    const read = async (lng: string) => (await fetch(`${server.url}/partnerships?lng=${lng}`)).text();
    const expected = {
      fr: "Suivi des prix Amazon",
      en: "Amazon price tracking",
      de: "Amazon-Preisverlauf",
      es: "Seguimiento de precios de Amazon",
    };
    for (const [lng, text] of Object.entries(expected)) {
      const html = await read(lng);
      expect(html, lng).toContain(text);
      if (lng !== "fr") expect(html, lng).not.toContain(expected.fr);
    }
  });

  it("demo data keeps votes_count equal to the vote rows", async () => {
    const rows = await raw.all<{ name: string; votes_count: number; n: number }>(
      `select s.name, s.votes_count, (select cast(count(*) as integer) from platform_suggestion_votes v where v.suggestion_id = s.id) as n from platform_suggestions s`,
    );
    expect(rows.length).toBe(3);
    for (const r of rows) expect(r.votes_count).toBe(r.n);
    expect(rows.find((r) => r.name === "Boursorama Banque")?.votes_count).toBe(9);
  });

  it("sitemap.xml: XML, cached briefly, on SITE_URL, every active platform and its draw page", async () => {
    const res = await fetch(`${server.url}/sitemap.xml`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    const xml = await res.text();
    const slugs = (await raw.all<{ slug: string }>("select slug from platforms where is_active = 1")).map((r) => r.slug);
    for (const slug of slugs) {
      expect(xml).toContain(`<loc>https://parrainly.test/${slug}</loc>`);
      expect(xml).toContain(`<loc>https://parrainly.test/${slug}/get-code</loc>`);
    }
    expect(xml).not.toContain("localhost");
    expect(xml).not.toContain("/admin");
  });

  it("robots.txt: plain text declaring the sitemap", async () => {
    const res = await fetch(`${server.url}/robots.txt`);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await res.text()).toContain("Sitemap: https://parrainly.test/sitemap.xml");
  });

  it("privacy and terms render in all four languages", async () => {
    for (const [lng, privacy, terms] of [
      ["fr", "Politique de confidentialité", "Liens affiliés"],
      ["en", "Privacy policy", "Affiliate links"],
      ["de", "Datenschutzerklärung", "Affiliate-Links"],
      ["es", "Política de privacidad", "Enlaces de afiliación"],
    ]) {
      expect(await (await fetch(`${server.url}/privacy?lng=${lng}`)).text()).toContain(privacy);
      expect(await (await fetch(`${server.url}/terms?lng=${lng}`)).text()).toContain(terms);
    }
  });
});
