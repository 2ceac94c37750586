import { renderToStaticMarkup } from "react-dom/server";
import * as ReactI18next from "react-i18next";
import { beforeAll, describe, expect, it, vi } from "vitest";
import * as ServerHooks from "~/i18n/server-hooks";
import type * as I18nServer from "~/i18n/i18next.server";
import { SUPPORTED_LANGUAGES } from "~/i18n/config";

// The module reads I18N_STRICT when it loads: a missing key throws instead of showing the key.
let server: typeof I18nServer;
beforeAll(async () => {
  vi.stubEnv("I18N_STRICT", "1");
  vi.resetModules();
  server = await import("~/i18n/i18next.server");
});

type Hooks = Pick<typeof ServerHooks, "I18nextProvider" | "useTranslation">;

/** The ways the app's parts call the hook: no namespace, one, a list; keys of another namespace; plurals; the language. */
function page({ I18nextProvider, useTranslation }: Hooks, language: (typeof SUPPORTED_LANGUAGES)[number]) {
  function Parts() {
    const common = useTranslation();
    const home = useTranslation("home");
    const list = useTranslation(["platform", "trust"]);
    return (
      <p lang={common.i18n.language}>
        {common.t("nav.skipToContent")}|{home.t("hero.title")}|{list.t("draw.launch")}|
        {list.t("trust:feed.title", { site: "Parrainly" })}|{common.t("common:languageOffer.link")}
      </p>
    );
  }
  return renderToStaticMarkup(
    <I18nextProvider i18n={server.i18nForRender(language)}>
      <Parts />
    </I18nextProvider>,
  );
}

describe("the server's translation hooks (decision 268)", () => {
  it("render exactly what react-i18next renders, in every language", () => {
    for (const language of SUPPORTED_LANGUAGES) {
      const ours = page(ServerHooks, language);
      expect(ours).toBe(page(ReactI18next as unknown as Hooks, language));
      expect(ours).toContain(`lang="${language}"`);
    }
  });

  it("bind `t` to the first namespace asked, the default one when none", () => {
    const instance = server.i18nForRender("en");
    let seen: { none?: string; list?: string } = {};
    function Probe() {
      seen = {
        none: ServerHooks.useTranslation().t("nav.skipToContent"),
        list: ServerHooks.useTranslation(["platform", "common"]).t("draw.launch"),
      };
      return null;
    }
    renderToStaticMarkup(
      <ServerHooks.I18nextProvider i18n={instance}>
        <Probe />
      </ServerHooks.I18nextProvider>,
    );
    expect(seen.none).toBe(instance.getFixedT("en", "common")("nav.skipToContent"));
    expect(seen.list).toBe(instance.getFixedT("en", "platform")("draw.launch"));
  });
});
