import { describe, expect, it } from "vitest";
import { checkSimilarNames, levenshtein, nameLengths, nameSimilarity, normalizeName } from "~/features/community/similarity";
import { storedNameLengths } from "../../migrations/0010_list_indexes";

describe("normalizeName", () => {
  it("lower-cases and drops accents and non-alphanumerics", () => {
    expect(normalizeName("Boursorama Banque")).toBe("boursoramabanque");
    expect(normalizeName("  Crédit-Agricole ! ")).toBe("creditagricole");
    expect(normalizeName("Ça_Marche 2")).toBe("camarche2");
    expect(normalizeName("!!!")).toBe("");
  });
});

describe("levenshtein and nameSimilarity", () => {
  it("counts edits", () => {
    expect(levenshtein("kitten", "sitting")).toBe(3);
    expect(levenshtein("", "abc")).toBe(3);
    expect(levenshtein("abc", "abc")).toBe(0);
  });
  it("is 1 - distance / longest length on normalized names", () => {
    expect(nameSimilarity("Revolut", "revolut")).toBe(1);
    expect(nameSimilarity("Revolutt", "Revolut")).toBeCloseTo(1 - 1 / 8);
    expect(nameSimilarity("abc", "xyz")).toBe(0);
  });
});

describe("checkSimilarNames", () => {
  const candidates = [
    { name: "Revolut", kind: "platform" as const },
    { name: "Trade Republic", kind: "platform" as const },
    { name: "Boursorama Banque", kind: "suggestion" as const },
  ];

  it("blocks an existing platform's exact name, even written differently", () => {
    const verdict = checkSimilarNames("trade-republic", candidates);
    expect(verdict.blocked).toBe(true);
    if (verdict.blocked) expect(verdict.reason).toBe("existingPlatform");
  });

  it("blocks above 0.85 and lists the match with a percentage", () => {
    const verdict = checkSimilarNames("Boursorama Banqe", candidates);
    expect(verdict.blocked).toBe(true);
    if (verdict.blocked) {
      expect(verdict.reason).toBe("similar");
      expect(verdict.match.name).toBe("Boursorama Banque");
      expect(verdict.match.percent).toBe(94);
    }
  });

  it("lists names between 0.7 and 0.85 without blocking", () => {
    // 'revolix' vs 'revolut': 2 edits over 7 → 0.714
    const verdict = checkSimilarNames("Revolix", candidates);
    expect(verdict.blocked).toBe(false);
    expect(verdict.similar.map((s) => [s.name, s.percent])).toEqual([["Revolut", 71]]);
  });

  it("exactly 0.85 does not block, 0.7 is not listed (strictly above)", () => {
    // 20 letters, 3 edits → 0.85
    const base = "abcdefghijklmnopqrst";
    const at85 = checkSimilarNames("xyzdefghijklmnopqrst", [{ name: base, kind: "suggestion" }]);
    expect(at85.blocked).toBe(false);
    expect(at85.similar[0]?.percent).toBe(85);
    // 10 letters, 3 edits → 0.7
    expect(checkSimilarNames("xyzdefghij", [{ name: "abcdefghij", kind: "suggestion" }]).similar).toEqual([]);
  });

  it("ignores unrelated names and empty input", () => {
    expect(checkSimilarNames("Fortuneo", candidates)).toEqual({ blocked: false, similar: [] });
    expect(checkSimilarNames("  ", candidates)).toEqual({ blocked: false, similar: [] });
  });
});

describe("real near-duplicates", () => {
  // Pairs seen in suggestions: the same platform under two names. Each must at least be blocked.
  const duplicates: Array<[string, string]> = [
    ["Boursorama", "Boursorama Banque"],
    ["Fortuneo Banque", "Fortuneo"],
    ["Hello bank!", "Hello Bank"],
    ["N26 Bank", "N26"],
    ["Lydia App", "Lydia"],
    ["igraal.fr", "iGraal"],
    ["Trade Republic Bank", "Trade Republic"],
    ["Revolut Business", "Revolut"],
    ["Qonto Pro", "Qonto"],
    ["BforBank", "BforBank France"],
    ["Crédit Agricole", "Credit Agricole"],
    ["Binance France", "Binance"],
    ["Trade Republik", "Trade Republic"],
  ];
  for (const [typed, known] of duplicates) {
    it(`blocks '${typed}' next to '${known}'`, () => {
      const verdict = checkSimilarNames(typed, [{ name: known, kind: "suggestion" }]);
      expect(verdict.blocked).toBe(true);
    });
  }

  // Different platforms that share a common word must not be taken for one another.
  const distinct: Array<[string, string]> = [
    ["Boursorama", "Bourse Direct"],
    ["Hello bank!", "Shine bank"],
    ["N26", "Holy"],
    ["Revolut", "Lydia App"],
    ["Fortuneo Banque", "Banque Populaire"],
  ];
  for (const [typed, known] of distinct) {
    it(`does not block '${typed}' next to '${known}'`, () => {
      expect(checkSimilarNames(typed, [{ name: known, kind: "suggestion" }]).blocked).toBe(false);
    });
  }
});

describe("the lengths migration 0010 stored", () => {
  // The migration keeps its own copy of the rule (a migration never imports app code). If this
  // fails, the app's rule changed: add a migration that recomputes name_length and core_length.
  it("are the lengths the app stores today", () => {
    for (const name of [
      "Boursorama Banque",
      "Lydia App",
      "igraal.fr",
      "Crédit Agricole Pro",
      "Trade Republic",
      "N26",
      "Banque",
      "  Ça_Marche 2 ",
      "!!!",
      "Société Générale France",
      "Revolut Business Card",
    ]) {
      expect(storedNameLengths(name), name).toEqual(nameLengths(name));
    }
  });
});
