import i18next from "i18next";
import { describe, expect, it } from "vitest";
import { startI18n } from "~/i18n/i18next.client";
import de from "~/locales/de/common.json";
import deTrust from "~/locales/de/trust.json";

describe("the browser's i18next (real i18next and react-i18next, decision 331)", () => {
  it("starts in the page's language with the namespaces asked, read through the batching backend", async () => {
    await startI18n("de", ["common", "trust"]);
    expect(i18next.language).toBe("de");
    expect(i18next.hasLoadedNamespace("common")).toBe(true);
    expect(i18next.hasLoadedNamespace("trust")).toBe(true);
    expect(i18next.t("meta.defaultTitle")).toBe(de.meta.defaultTitle);
    expect(i18next.getResourceBundle("de", "trust")).toEqual(deTrust);
    // A namespace loaded later comes the same way.
    await i18next.loadNamespaces("offer");
    expect(i18next.hasLoadedNamespace("offer")).toBe(true);
  });
});
