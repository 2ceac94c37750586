import { createInstance } from "i18next";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { i18nBaseOptions, SUPPORTED_LANGUAGES } from "~/i18n/config";
import { resources } from "~/i18n/resources.server";
import type * as I18nServer from "~/i18n/i18next.server";

// The module reads I18N_STRICT when it loads.
let server: typeof I18nServer;
beforeAll(async () => {
  vi.stubEnv("I18N_STRICT", "1");
  vi.resetModules();
  server = await import("~/i18n/i18next.server");
});

const request = (url: string, headers: Record<string, string> = {}) => new Request(url, { headers });

describe("server translations (one shared i18next, a language per request)", () => {
  it("a page read is French or its ?lng; a form's answer speaks ?lng, then the cookie, then Accept-Language, then French", async () => {
    expect((await server.getT(request("http://x/?lng=de"), "platform"))("draw.launch")).not.toBe(
      (await server.getT(request("http://x/"), "platform"))("draw.launch"),
    );
    const launch = async (req: Request) => (await server.getT(req, "platform"))("draw.launch");
    const post = (url: string, headers: Record<string, string> = {}) => new Request(url, { method: "POST", headers });
    expect(await launch(request("http://x/"))).toBe("Lancer le tirage au sort");
    // One URL, one language (decision 220): neither the cookie nor the browser changes a GET's language.
    expect(await launch(request("http://x/", { cookie: "language=es" }))).toBe("Lancer le tirage au sort");
    expect(await launch(request("http://x/", { "accept-language": "en-US,en;q=0.9" }))).toBe("Lancer le tirage au sort");
    expect(await launch(post("http://x/", { cookie: "language=es" }))).toBe(await launch(request("http://x/?lng=es")));
    expect(await launch(post("http://x/", { "accept-language": "en-US,en;q=0.9" }))).toBe(
      await launch(request("http://x/?lng=en")),
    );
    expect(await launch(post("http://x/?lng=en", { cookie: "language=de" }))).toBe(await launch(request("http://x/?lng=en")));
    expect(server.chosenLanguageUrl(request("http://x/a?b=1", { cookie: "language=de" }))).toBe("/a?b=1&lng=de");
    expect(server.chosenLanguageUrl(request("http://x/a?lng=fr", { cookie: "language=de" }))).toBeNull();
    expect(server.chosenLanguageUrl(request("http://x/a", { cookie: "language=fr" }))).toBeNull();
    expect(server.chosenLanguageUrl(post("http://x/a", { cookie: "language=de" }))).toBeNull();
  });

  it("concurrent requests in different languages do not leak into each other", async () => {
    const langs = ["fr", "en", "de", "es"] as const;
    const texts = await Promise.all(
      langs.map(async (lng) => (await server.getT(request(`http://x/?lng=${lng}`), "platform"))("draw.launch")),
    );
    expect(new Set(texts).size).toBe(4);
    const rendered = langs.map((lng) => server.i18nForRender(lng));
    expect(rendered.map((i) => i.language)).toEqual([...langs]);
    expect(rendered.map((i) => i.t("platform:draw.launch"))).toEqual(texts);
  });

  it("works the language out once per request and renders with one instance per language", async () => {
    const req = request("http://x/?lng=de");
    expect(server.getLanguage(req)).toBe(server.getLanguage(req));
    expect(await server.getLanguage(req)).toBe("de");
    const de = server.i18nForRender("de");
    expect(server.i18nForRender("en")).not.toBe(de);
    expect(server.i18nForRender("de")).toBe(de);
    expect(de.language).toBe("de");
  });

  it("a render instance gives texts from memory, each for its own key, language and values", () => {
    const fr = server.i18nForRender("fr");
    const fixed = fr.getFixedT("fr", "common");
    expect(fixed("footer.privacy")).toBe("Confidentialité");
    expect(fixed("footer.privacy")).toBe("Confidentialité");
    expect(server.i18nForRender("en").getFixedT("en", "common")("footer.privacy")).not.toBe("Confidentialité");
    expect(fixed("footer.copyright", { years: "2025" })).toContain("© 2025 ");
    expect(fixed("footer.copyright", { years: "2026" })).toContain("© 2026 ");
  });

  it("the memory changes no text: every key of every namespace and language, as rendering and loaders ask", () => {
    // A reference instance that remembers nothing.
    const reference = createInstance();
    void reference.init({ ...i18nBaseOptions, resources, lng: "fr", initImmediate: false });
    const keysOf = (tree: Record<string, unknown>, prefix = ""): string[] =>
      Object.entries(tree).flatMap(([k, v]) =>
        v && typeof v === "object" ? keysOf(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}`],
      );
    let compared = 0;
    for (const lng of SUPPORTED_LANGUAGES) {
      const rendered = server.i18nForRender(lng);
      for (const [ns, tree] of Object.entries(resources[lng]!)) {
        // Plural forms are asked for by their base key with a count.
        const keys = new Set(
          keysOf(tree as Record<string, unknown>).map((k) => k.replace(/_(zero|one|two|few|many|other)$/, "")),
        );
        // react-i18next's useTranslation asks with `lngs: null`, loaders' getT with the language.
        const asRendered = rendered.getFixedT(null, ns);
        const asLoaded = server.i18nForRender("fr").getFixedT(lng, ns);
        const expected = reference.getFixedT(lng, ns);
        for (const key of keys) {
          for (const options of [undefined, { count: 0 }, { count: 1 }, { count: 7, name: "Tesla", years: "2026" }]) {
            const want = expected(key, options);
            // A key that exists only in plural forms, asked for without a count: missing (strict throws).
            if (want === key) continue;
            // Twice: the first call fills the memory, the second reads it.
            for (let i = 0; i < 2; i++) {
              expect(asRendered(key, options)).toBe(want);
              expect(asLoaded(key, options)).toBe(want);
            }
            compared++;
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });

  it("a render instance remembers texts asked for as react-i18next asks (lngs: null)", () => {
    const de = server.i18nForRender("de");
    const fixed = de.getFixedT(null, "common");
    // i18next's look-up itself, behind the instance's `t`.
    const { translator } = de as unknown as { translator: { translate: (key: string, options?: { years?: unknown }) => string } };
    const translate = vi.spyOn(translator, "translate");
    let asked: string[];
    try {
      fixed("footer.copyright", { years: "2031" });
      fixed("footer.copyright", { years: "2031" });
      fixed("footer.copyright", { years: "2032" });
      // A value that is an object is never remembered.
      const years = { toString: () => "2033" };
      fixed("footer.copyright", { years });
      fixed("footer.copyright", { years });
      asked = translate.mock.calls.map(([, options]) => String(options?.years));
    } finally {
      translate.mockRestore();
    }
    expect(asked).toEqual(["2031", "2032", "2033", "2033"]);
  });

  it("a render instance hands out one fixed t per namespace, which asks i18next once per key and values", async () => {
    // A fresh module: nothing remembered yet.
    vi.resetModules();
    const es = (await import("~/i18n/i18next.server")).i18nForRender("es");
    const fixed = es.getFixedT(null, "common");
    expect(es.getFixedT(null, "common")).toBe(fixed);
    expect(es.getFixedT("es", "common")).toBe(fixed);
    expect(es.getFixedT(null, "platform")).not.toBe(fixed);
    // Another language, a key prefix or several namespaces: i18next's own, each time.
    expect(es.getFixedT("de", "common")).not.toBe(es.getFixedT("de", "common"));
    expect(es.getFixedT(null, "common", "footer")("privacy")).toBe(fixed("footer.privacy"));
    const { translator } = es as unknown as { translator: { translate: (key: string) => string } };
    const translate = vi.spyOn(translator, "translate");
    let asked: string[];
    try {
      const first = fixed("footer.terms");
      expect(fixed("footer.terms")).toBe(first);
      expect(es.getFixedT(null, "common")("footer.terms")).toBe(first);
      expect(fixed("footer.copyright", { years: "2040" })).toContain("2040");
      expect(fixed("footer.copyright", { years: "2040" })).toContain("2040");
      expect(fixed("footer.copyright", { years: "2041" })).toContain("2041");
      asked = translate.mock.calls.map(([key]) => key);
    } finally {
      translate.mockRestore();
    }
    // Once per key and values.
    expect(asked).toEqual(["footer.terms", "footer.copyright", "footer.copyright"]);
  });

  it("with I18N_STRICT a missing key throws, in loaders and in rendering", async () => {
    const t = await server.getT(request("http://x/?lng=de"), "platform");
    expect(() => t("draw.noSuchKey")).toThrow("Missing translation key platform:draw.noSuchKey");
    expect(() => server.i18nForRender("es").t("platform:noSuchKey")).toThrow("Missing translation key");
  });
});
