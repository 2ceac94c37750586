import { RemixBrowser } from "@remix-run/react";
import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { getInitialNamespaces } from "remix-i18next/client";
import { LAYOUT_NAMESPACES, i18nBaseOptions } from "./i18n/config";
import { startI18n } from "./i18n/i18next.client";

async function hydrate() {
  const lng = document.documentElement.lang || i18nBaseOptions.fallbackLng;
  // Only what this page shows: the layout's namespaces and those its routes declare (each
  // language/namespace file is its own small chunk). The pages were rendered by i18next on the
  // server with the same texts (i18next and react-i18next on both sides).
  await startI18n(lng, [...new Set([...LAYOUT_NAMESPACES, ...getInitialNamespaces()])]);
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
      <StrictMode>
        <RemixBrowser />
      </StrictMode>,
    );
  });
}

void hydrate();
