import { describe, expect, it } from "vitest";
import { buildMeta } from "~/utils/meta";

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
    expect(tags).toContainEqual({ tagName: "link", rel: "canonical", href: "https://parrainly.test/tesla" });
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
});
