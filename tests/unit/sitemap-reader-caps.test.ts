import { describe, expect, it } from "vitest";
import { SitemapDocumentReader } from "~/features/sitemap-audit/document-reader";

/** Feeds `text` in 4 KB slices, as the audit does, until the reader gives up. */
function read(text: string, maxUrls = 50_000) {
  const reader = new SitemapDocumentReader({
    documentUrl: new URL("https://ex.test/sitemap.xml"),
    now: new Date(),
    maxChildren: 50,
    maxUrls,
  });
  const bytes = new TextEncoder().encode(text);
  for (let start = 0; start < bytes.length && reader.healthy; start += 4096) {
    reader.write(bytes.subarray(start, start + 4096));
  }
  reader.end(true);
  return { findings: reader.findings, remembered: reader.rememberedUrls };
}

const NS = "http://www.sitemaps.org/schemas/sitemap/0.9";

describe("the sitemap reader's caps", () => {
  it("a sitemap's three levels read as usual; 33 levels are refused at the 33rd", () => {
    expect(read(`<urlset xmlns="${NS}"><url><loc>https://ex.test/a</loc></url></urlset>`).findings).toMatchObject({
      wellFormedError: null,
      entries: 1,
    });
    const deep = read(`<urlset xmlns="${NS}">${"<a>".repeat(32)}${"</a>".repeat(32)}</urlset>`);
    expect(deep.findings.wellFormedError).toBe("elements nested deeper than 32 levels");
    expect(read(`<urlset xmlns="${NS}">${"<a>".repeat(31)}${"</a>".repeat(31)}</urlset>`).findings.wellFormedError).toBeNull();
  });

  it("200,000 nested elements stop at the cap", () => {
    const { findings } = read(`<urlset xmlns="${NS}">${"<a>".repeat(200_000)}${"</a>".repeat(200_000)}</urlset>`);
    expect(findings.wellFormedError).toBe("elements nested deeper than 32 levels");
  });

  it("a tag of 100,000 attributes is refused once it passes 16 KB", () => {
    const attributes = Array.from({ length: 100_000 }, (_, i) => `a${i}="x"`).join(" ");
    const { findings } = read(`<urlset xmlns="${NS}"><url ${attributes}/></urlset>`);
    expect(findings.wellFormedError).toBe("a tag or comment longer than 16384 characters");
  });

  it("long text between tags is no markup: a 2,000-character URL reads as usual", () => {
    const loc = `https://ex.test/${"a".repeat(2_000)}`;
    const { findings } = read(`<urlset xmlns="${NS}">${`<url><loc>${loc}</loc></url>`.repeat(20)}</urlset>`);
    expect(findings.wellFormedError).toBeNull();
    expect(findings.entries).toBe(20);
  });

  it("remembers at most maxUrls URLs for the duplicate check, however many the file holds", () => {
    // 300,000 short entries: a 50 MB file of such lines holds 1.25 million, and every digest kept
    // passed the 128 MB heap in one audit.
    const entries = Array.from({ length: 300_000 }, (_, i) => `<url><loc>https://ex.test/${i}</loc></url>`).join("");
    const { findings, remembered } = read(
      `<urlset xmlns="${NS}"><url><loc>https://ex.test/0</loc></url>${entries}</urlset>`,
      1_000,
    );
    expect(findings.entries).toBe(300_001);
    // The first thousand entries, one of them the duplicate: 999 URLs, not 300,000.
    expect(remembered).toBe(999);
    // Duplicates within the remembered ones are still found.
    expect(findings.duplicates.count).toBe(1);
  });
});
