import { RemixBrowser } from "@remix-run/react";
import i18next, { type BackendModule } from "i18next";
import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { getInitialNamespaces } from "remix-i18next/client";
import { LAYOUT_NAMESPACES, i18nBaseOptions } from "./i18n/config";

// Each language/namespace file is its own small, hashed chunk, fetched only when needed.
const files = import.meta.glob<{ default: Record<string, unknown> }>("./locales/*/*.json");
const lazyBackend: BackendModule = {
  type: "backend",
  init() {},
  read(language, namespace, callback) {
    const load = files[`./locales/${language}/${namespace}.json`];
    if (!load) return callback(null, {});
    load().then(
      (mod) => callback(null, mod.default),
      (error: Error) => callback(error, false),
    );
  },
};

async function hydrate() {
  const lng = document.documentElement.lang || i18nBaseOptions.fallbackLng;
  await i18next
    .use(initReactI18next)
    .use(lazyBackend)
    .init({
      ...i18nBaseOptions,
      lng,
      // Only what this page shows: the layout's namespaces and those its routes declare.
      ns: [...new Set([...LAYOUT_NAMESPACES, ...getInitialNamespaces()])],
      react: { useSuspense: false },
    });
  // Mirror the server's choices to localStorage (keys `language` and `theme`, read by the inline theme script before paint).
  try {
    localStorage.setItem("language", lng);
    localStorage.setItem("theme", document.documentElement.dataset.theme ?? "dark");
  } catch {
    // private mode: nothing to mirror
  }
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

void hydrate();
