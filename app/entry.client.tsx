import { RemixBrowser } from "@remix-run/react";
import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { getInitialNamespaces } from "remix-i18next/client";
import { i18n } from "./i18n/client-runtime";
import { LAYOUT_NAMESPACES, i18nBaseOptions } from "./i18n/config";

async function hydrate() {
  const lng = document.documentElement.lang || i18nBaseOptions.fallbackLng;
  // Only what this page shows: the layout's namespaces and those its routes declare (each
  // language/namespace file is its own small chunk). The pages were rendered by i18next on the
  // server; the browser's small runtime (./i18n/client-runtime) gives the same texts.
  // A route may also name code that its page loads itself, before hydrating (`handle.preload`: the
  // draw pages' halves, decision 263), so that hydration never waits for a chunk.
  const routes = (
    window as unknown as { __remixRouteModules?: Record<string, { handle?: { preload?: () => Promise<unknown> } }> }
  ).__remixRouteModules;
  await Promise.all([
    i18n.init({ lng, ns: [...new Set([...LAYOUT_NAMESPACES, ...getInitialNamespaces()])] }),
    ...Object.values(routes ?? {}).map((route) => route.handle?.preload?.()),
  ]);
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
