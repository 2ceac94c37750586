import { describe, expect, it } from "vitest";
import { detectImageKind } from "~/features/admin/catalog/logo.server";
import { deriveUrlRules } from "~/features/admin/catalog/rules";
import { deriveSlug, graphemeCount } from "~/features/admin/catalog/slug";
import { extractCodeFromUrl } from "~db/platform-links";

describe("deriveSlug", () => {
  it.each([
    ["Trade Republic", "trade-republic"],
    ["  Crème Brûlée & Co!  ", "creme-brulee-co"],
    ["N26", "n26"],
    ["Ça coûte 0 €", "ca-coute-0"],
    ["!!!", ""],
  ])("%s → %s", (name, slug) => expect(deriveSlug(name)).toBe(slug));
});

describe("graphemeCount", () => {
  it("counts what a person sees", () => {
    expect(graphemeCount("🌐")).toBe(1);
    expect(graphemeCount("👨‍👩‍👧‍👦👍🏽🇫🇷")).toBe(3);
    expect(graphemeCount("abcde")).toBe(5);
  });
});

describe("deriveUrlRules", () => {
  it("reads the rule off the link template, so pasted links give their code", () => {
    const query = deriveUrlRules("https://shop.example/invite?ref={code}&x=1");
    expect(query).toEqual([{ type: "query", param: "ref" }]);
    expect(
      extractCodeFromUrl(new URL("https://shop.example/invite?ref=abc123"), {
        hosts: "shop.example",
        url_rules: JSON.stringify(query),
      }),
    ).toBe("ABC123");
    expect(deriveUrlRules("https://bank.example/r/{code}")).toEqual([{ type: "path", after: "r" }]);
    expect(deriveUrlRules("https://go.example/{code}")).toEqual([{ type: "path" }]);
    expect(deriveUrlRules("https://go.example/")).toEqual([]);
    expect(deriveUrlRules(null)).toEqual([]);
  });
});

describe("detectImageKind", () => {
  it("trusts the first bytes only", () => {
    expect(detectImageKind(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))?.ext).toBe("png");
    expect(detectImageKind(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))?.ext).toBe("jpg");
    expect(detectImageKind(new Uint8Array([...Buffer.from("RIFF"), 0, 0, 0, 0, ...Buffer.from("WEBP")]))?.ext).toBe("webp");
    expect(detectImageKind(new Uint8Array([...Buffer.from("RIFF"), 0, 0, 0, 0, ...Buffer.from("WAVE")]))).toBeNull();
    expect(detectImageKind(new TextEncoder().encode("<svg xmlns=...>"))).toBeNull();
    expect(detectImageKind(new Uint8Array([]))).toBeNull();
  });
});
