import { describe, expect, it } from "vitest";
import type { MetaArgs } from "@remix-run/react";
import { buildMeta, routeMeta } from "~/utils/meta";

describe("buildMeta", () => {
  it("builds title, canonical, Open Graph and JSON-LD", () => {
    const tags = buildMeta(
      {
        title: "Tesla",
        description: "Codes Tesla",
        path: "/tesla",
        keywords: "tesla, parrainage",
        structuredData: { "@type": "Organization" },
      },
      "https://parrainly.test",
      "en",
    );
    expect(tags).toContainEqual({ title: "Tesla | Parrainly" });
    // A language other than French keeps its ?lng= in a self-referencing canonical.
    expect(tags).toContainEqual({ tagName: "link", rel: "canonical", href: "https://parrainly.test/tesla?lng=en" });
    expect(tags).toContainEqual({ property: "og:url", content: "https://parrainly.test/tesla?lng=en" });
    for (const [hrefLang, href] of [
      ["fr", "https://parrainly.test/tesla"],
      ["en", "https://parrainly.test/tesla?lng=en"],
      ["de", "https://parrainly.test/tesla?lng=de"],
      ["es", "https://parrainly.test/tesla?lng=es"],
      ["x-default", "https://parrainly.test/tesla"],
    ])
      expect(tags).toContainEqual({ tagName: "link", rel: "alternate", hrefLang, href });
    const french = buildMeta({ title: "Tesla", description: "d", path: "/tesla" }, "https://parrainly.test", "fr");
    expect(french).toContainEqual({ tagName: "link", rel: "canonical", href: "https://parrainly.test/tesla" });
    const hidden = buildMeta({ title: "x", description: "y", path: "/r", noindex: true }, "https://parrainly.test", "en");
    expect(hidden.filter((t) => "rel" in t && t.rel === "alternate")).toEqual([]);
    expect(tags).toContainEqual({ property: "og:image", content: "https://parrainly.test/og-default.png" });
    expect(tags).toContainEqual({ property: "og:locale", content: "en_GB" });
    expect(tags).toContainEqual({ name: "keywords", content: "tesla, parrainage" });
    expect(tags).toContainEqual({ "script:ld+json": { "@type": "Organization" } });
  });

  it("uses the site base as canonical when no path is given", () => {
    expect(buildMeta({ title: "x", description: "y" }, "https://a.test")).toContainEqual({
      tagName: "link",
      rel: "canonical",
      href: "https://a.test",
    });
  });

  it("an error page (a 404, a refusal) has no canonical and no alternates, and is not indexed", () => {
    const root = { siteUrl: "https://a.test", language: "fr", meta: { title: "Accueil", description: "d" } };
    const args = (error: unknown) =>
      ({ data: undefined, error, matches: [{ id: "root", data: root }], location: {}, params: {} }) as unknown as MetaArgs;
    const page = routeMeta(args(undefined));
    expect(page).toContainEqual({ tagName: "link", rel: "canonical", href: "https://a.test" });
    const failed = routeMeta(args(new Response(null, { status: 404 })));
    expect(failed.filter((t) => "rel" in t)).toEqual([]);
    expect(failed).toContainEqual({ name: "robots", content: "noindex, nofollow" });
    expect(failed).toContainEqual({ title: "Accueil | Parrainly" });
  });
});
