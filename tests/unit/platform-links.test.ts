import { describe, expect, it } from "vitest";
import { normalizeCodeInput, safeHref, swapCodeInLink, type PlatformLinkConfig } from "~db/platform-links";
import { SEED_PLATFORMS } from "~db/seed-data";

function config(slug: string): PlatformLinkConfig {
  const p = SEED_PLATFORMS.find((x) => x.slug === slug);
  if (!p) throw new Error(`no seed platform ${slug}`);
  return {
    slug,
    hosts: p.hosts,
    url_rules: JSON.stringify(p.url_rules),
    referral_url_template: p.referral_url_template,
    code_pattern: p.code_pattern,
  };
}

/**
 * [input, expected code, expected referral URL] for every URL shape a visitor may paste: the kept link
 * is always the platform's standard link for that code (its template), never the link as typed.
 */
const CASES: Record<string, Array<[string, string, string]>> = {
  tesla: [
    ["https://www.tesla.com/referral/julien48213", "JULIEN48213", "https://ts.la/julien48213"],
    ["https://www.tesla.com/fr_FR/referral/julien48213?redirect=no", "JULIEN48213", "https://ts.la/julien48213"],
    ["https://ts.la/julien48213", "JULIEN48213", "https://ts.la/julien48213"],
    ["ts.la/camille7765", "CAMILLE7765", "https://ts.la/camille7765"],
    ["julien48213", "JULIEN48213", "https://ts.la/JULIEN48213"],
  ],
  revolut: [
    [
      "https://revolut.com/referral/?referral-code=marie3k9!NOV2-24-AR-H1&geo-redirect",
      "MARIE3K9",
      "https://revolut.com/referral/?referral-code=marie3k9",
    ],
    [
      "https://www.revolut.com/referral/?referral-code=lucasr21#top",
      "LUCASR21",
      "https://revolut.com/referral/?referral-code=lucasr21",
    ],
    ["https://revolut.com/referral/?referral-code=emma77q&x=1", "EMMA77Q", "https://revolut.com/referral/?referral-code=emma77q"],
    ["marie3k9", "MARIE3K9", "https://revolut.com/referral/?referral-code=MARIE3K9"],
  ],
  "trade-republic": [
    ["https://trade.re/nj4k8p2x", "NJ4K8P2X", "https://trade.re/nj4k8p2x"],
    ["https://refnocode.trade.re/ab12cd34", "AB12CD34", "https://trade.re/ab12cd34"],
    ["nj4k8p2x", "NJ4K8P2X", "https://trade.re/NJ4K8P2X"],
  ],
  igraal: [
    ["https://fr.igraal.com/parrainage?parrain=sophie-m", "SOPHIE-M", "https://fr.igraal.com/parrainage?parrain=sophie-m"],
    ["https://www.igraal.com/?utm=x&parrain=antoine75", "ANTOINE75", "https://fr.igraal.com/parrainage?parrain=antoine75"],
    ["antoine75", "ANTOINE75", "https://fr.igraal.com/parrainage?parrain=ANTOINE75"],
  ],
  n26: [
    ["https://n26.com/r/hugod8462", "HUGOD8462", "https://n26.com/r/hugod8462"],
    ["https://n26.com/fr-fr/r/leab1290?utm_source=x", "LEAB1290", "https://n26.com/r/leab1290"],
    ["hugod8462", "HUGOD8462", "https://n26.com/r/HUGOD8462"],
  ],
  holy: [
    ["https://prz.io/chloe10", "CHLOE10", "https://prz.io/chloe10"],
    ["https://weareholy.com/parrain/maxholy", "MAXHOLY", "https://prz.io/maxholy"],
    ["maxholy", "MAXHOLY", "https://prz.io/MAXHOLY"],
  ],
};

describe("platform link rules (seeded data)", () => {
  for (const [slug, cases] of Object.entries(CASES)) {
    describe(slug, () => {
      it.each(cases)("%s → %s", (input, code, url) => {
        expect(normalizeCodeInput(input, config(slug))).toEqual({ ok: true, code, referralUrl: url });
      });
    });
  }

  it("trims and upper-cases plain codes", () => {
    expect(normalizeCodeInput("   abc123  ", config("n26"))).toMatchObject({ ok: true, code: "ABC123" });
  });
});

describe("hostile input", () => {
  const tesla = config("tesla");
  it.each([
    ["javascript:alert(1)", "invalidLink"],
    ["JavaScript:alert(document.cookie)//ts.la/x", "invalidLink"],
    ["data:text/html,<script>alert(1)</script>", "invalidLink"],
    ["https://evil.example/referral/abc123", "foreignLink"],
    ["https://ts.la.evil.example/abc123", "foreignLink"],
    ["https://evil.example/?referral-code=abc123", "foreignLink"],
    ["https://tesla.com/", "noCodeInLink"],
    ["<img src=x onerror=alert(1)>", "invalidCode"],
    ["ÀBC123", "invalidCode"],
    ["АВС123", "invalidCode"], // Cyrillic look-alikes
    ["a".repeat(65), "invalidCode"],
    ["x".repeat(3000), "inputTooLong"],
    ["   ", "codeRequired"],
  ])("%s is rejected (%s)", (input, error) => {
    expect(normalizeCodeInput(input, tesla)).toEqual({ ok: false, error });
  });

  it("a revolut parameter on a foreign host is not a revolut link", () => {
    expect(normalizeCodeInput("https://revolut.com.evil.example/?referral-code=abc", config("revolut"))).toEqual({
      ok: false,
      error: "foreignLink",
    });
  });

  it("rebuilds the link when the pasted one carries credentials or a port", () => {
    expect(normalizeCodeInput("https://user:pw@ts.la/abc123", tesla)).toEqual({
      ok: true,
      code: "ABC123",
      referralUrl: "https://ts.la/abc123",
    });
  });

  // Issue 56: one real referral registered under fake codes by links that carry two.
  it.each([
    [
      "revolut",
      "https://revolut.com/referral/?referral-code=FAKE0001&referral-code=REALCODE",
      "FAKE0001",
      "https://revolut.com/referral/?referral-code=FAKE0001",
    ],
    [
      "igraal",
      "https://fr.igraal.com/parrainage?parrain=FAKE0002&parrain=REALCODE",
      "FAKE0002",
      "https://fr.igraal.com/parrainage?parrain=FAKE0002",
    ],
    ["tesla", "https://ts.la/REALCODE/referral/FAKE0003", "FAKE0003", "https://ts.la/FAKE0003"],
    ["holy", "https://weareholy.com/REALCODE/parrain/FAKE0004", "FAKE0004", "https://prz.io/FAKE0004"],
  ])("%s: a second code in the link is dropped: %s", (slug, input, code, url) => {
    expect(normalizeCodeInput(input, config(slug))).toEqual({ ok: true, code, referralUrl: url });
  });

  it("without a template, the link is cut down to the code's one parameter or segment", () => {
    const bare = { slug: "bare", hosts: "bare.example", referral_url_template: null };
    const query = { ...bare, url_rules: JSON.stringify([{ type: "query", param: "ref" }]) };
    const path = { ...bare, url_rules: JSON.stringify([{ type: "path", after: "r" }]) };
    expect(normalizeCodeInput("https://bare.example/join?ref=Fake1&ref=REAL&x=1#y", query)).toEqual({
      ok: true,
      code: "FAKE1",
      referralUrl: "https://bare.example/join?ref=Fake1",
    });
    expect(normalizeCodeInput("https://bare.example/REAL/r/fake2/REAL2?x=1", path)).toEqual({
      ok: true,
      code: "FAKE2",
      referralUrl: "https://bare.example/r/fake2",
    });
  });

  it("checks the platform's code pattern", () => {
    expect(normalizeCodeInput("AB", tesla)).toEqual({ ok: false, error: "patternMismatch" });
  });

  it("safeHref lets only http(s) through", () => {
    expect(safeHref("javascript:alert(1)")).toBeNull();
    expect(safeHref("data:text/html,x")).toBeNull();
    expect(safeHref("/relative")).toBeNull();
    expect(safeHref("https://ts.la/A")).toBe("https://ts.la/A");
  });
});

describe("a renamed code keeps the rest of its link (swapCodeInLink)", () => {
  it("swaps the code and carries over what follows it (Revolut's !JAN)", () => {
    expect(
      swapCodeInLink("https://revolut.com/referral/?referral-code=julien48!JAN", "JULIEN48", "MARIE99", config("revolut")),
    ).toBe("https://revolut.com/referral/?referral-code=marie99!JAN");
    expect(swapCodeInLink("https://ts.la/JULIEN48213", "JULIEN48213", "CAMILLE7765", config("tesla"))).toBe(
      "https://ts.la/CAMILLE7765",
    );
  });

  it("gives up (null) where a swap could not be trusted: the code absent, twice, or not read back", () => {
    const revolut = config("revolut");
    expect(swapCodeInLink("https://revolut.com/referral/?referral-code=other1", "JULIEN48", "MARIE99", revolut)).toBeNull();
    expect(swapCodeInLink("https://revolut.com/julien48/?referral-code=julien48", "JULIEN48", "MARIE99", revolut)).toBeNull();
    // The new code would land where the platform's rule does not read it.
    expect(swapCodeInLink("https://revolut.com/referral/julien48", "JULIEN48", "MARIE99", revolut)).toBeNull();
    expect(swapCodeInLink("not a link", "JULIEN48", "MARIE99", revolut)).toBeNull();
  });
});
