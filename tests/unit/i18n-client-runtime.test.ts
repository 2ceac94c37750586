import fs from "node:fs";
import path from "node:path";
import { createInstance } from "i18next";
import { describe, expect, it, vi } from "vitest";
import { i18n as runtime } from "~/i18n/client-runtime";
import { SUPPORTED_LANGUAGES, i18nBaseOptions } from "~/i18n/config";
import { ROOT } from "../support/paths";

// The server renders with i18next, the browser hydrates with the small runtime (decision 175): for
// every key of every namespace in the four languages, with and without counts and values, both
// must give the same text, or hydration would show a different page.
const LOCALES = path.join(ROOT, "app", "locales");
const namespaces = fs
  .readdirSync(path.join(LOCALES, "fr"))
  .filter((f) => f.endsWith(".json"))
  .map((f) => f.replace(/\.json$/, ""));

function keys(value: unknown, prefix = ""): string[] {
  if (typeof value !== "object" || value === null) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

const PLURAL = /_(zero|one|two|few|many|other)$/;
const VALUES = [{}, { name: "Nova", percent: 59, code: "ABC" }];
const COUNTS = [0, 1, 2, 5, 21, 1_000_000];

describe("the browser's translation runtime", () => {
  for (const language of SUPPORTED_LANGUAGES) {
    it(`gives i18next's texts in ${language}`, async () => {
      const resources = Object.fromEntries(
        namespaces.map((ns) => [ns, JSON.parse(fs.readFileSync(path.join(LOCALES, language, `${ns}.json`), "utf8"))]),
      );
      const reference = createInstance();
      await reference.init({ ...i18nBaseOptions, lng: language, ns: namespaces, resources: { [language]: resources } });
      await runtime.init({ lng: language, ns: namespaces });

      let compared = 0;
      for (const ns of namespaces) {
        const bases = new Set(keys(resources[ns]).map((key) => key.replace(PLURAL, "")));
        for (const key of bases) {
          for (const values of VALUES) {
            expect(runtime.t(`${ns}:${key}`, values), `${ns}:${key}`).toBe(reference.t(`${ns}:${key}`, values));
            expect(runtime.t(key, { ns, ...values })).toBe(reference.t(key, { ns, ...values }));
            for (const count of COUNTS)
              expect(runtime.t(`${ns}:${key}`, { ...values, count }), `${ns}:${key} ${count}`).toBe(
                reference.t(`${ns}:${key}`, { ...values, count }),
              );
            compared++;
          }
        }
      }
      expect(compared).toBeGreaterThan(500);
      expect(runtime.t("common:no.such.key")).toBe(reference.t("common:no.such.key"));
      expect(runtime.t("common:no.such.key", { defaultValue: "x" })).toBe("x");
      expect(runtime.exists("common:nav.skipToContent")).toBe(true);
      expect(runtime.exists("nav.nothing", { ns: "common" })).toBe(false);
    });
  }

  it("switches language after loading the namespaces in use", async () => {
    await runtime.init({ lng: "fr", ns: ["common"] });
    const french = runtime.t("common:nav.skipToContent");
    await runtime.changeLanguage("de");
    expect(runtime.language).toBe("de");
    expect(runtime.hasLoadedNamespace("common")).toBe(true);
    expect(runtime.t("common:nav.skipToContent")).not.toBe(french);
  });
});

describe("the runtime's re-renders", () => {
  it("re-renders only the parts whose namespaces arrive, and every part on a language change", async () => {
    // A fresh runtime: the tests above loaded every namespace into the shared one.
    vi.resetModules();
    const { i18n: runtime, snapshot, subscribe } = await import("~/i18n/client-runtime");
    await runtime.init({ lng: "fr", ns: ["common"] });
    let calls = 0;
    const unsubscribe = subscribe(() => calls++);
    try {
      const page = snapshot(["common"]);
      const game = snapshot(["game"]);
      const both = snapshot(["common", "game"]);

      // Nothing new: nobody is told.
      await runtime.loadNamespaces(["common"]);
      expect(calls).toBe(0);

      // The game's texts arrive (a visitor's first touch): only parts that read them change.
      await runtime.loadNamespaces("game");
      expect(calls).toBe(1);
      expect(snapshot(["common"])).toBe(page);
      expect(snapshot(["game"])).not.toBe(game);
      expect(snapshot(["common", "game"])).not.toBe(both);

      // Another language: every part shows other texts.
      await runtime.changeLanguage("en");
      expect(calls).toBe(2);
      expect(snapshot(["common"])).not.toBe(page);
    } finally {
      unsubscribe();
    }
  });
});
