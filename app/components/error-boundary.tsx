import { useTranslation } from "react-i18next";
import { narrow } from "~/styles/ui.css";
import { serverOnly$ } from "vite-env-only/macros";
import { GeneralErrorBoundary as ServerGeneralErrorBoundary } from "./error-pages";
import { splitPart } from "./split-part";

/**
 * Every route's ErrorBoundary. The error pages' code (error-pages.tsx) is a chunk of its own that a
 * page without an error never loads (split-part.tsx, decision 265): the browser fetches it before
 * hydrating a page the server rendered as an error (`preloadErrorPage`, from the root's
 * `beforeHydration`, which entry.client.tsx waits for), so hydration renders it at once; after a client
 * navigation that fails, when the boundary first renders.
 */
export const GeneralErrorBoundary = splitPart(
  serverOnly$(() => ServerGeneralErrorBoundary),
  () => import("./error-pages").then((m) => m.GeneralErrorBoundary),
  Unreachable,
);

/**
 * When the error pages' code cannot load either (a navigation that failed because the network is
 * gone): the message alone, and a link that loads the home page anew, not through the router.
 */
function Unreachable() {
  const { t } = useTranslation();
  return (
    <div className={narrow} role="alert" data-testid="error-unreachable">
      <h1>{t("errors.generic")}</h1>
      <p>{t("errors.tryAgain")}</p>
      <p>
        <a href="/">{t("notFound.home")}</a>
      </p>
    </div>
  );
}

export function preloadErrorPage(): Promise<unknown> | undefined {
  return document.querySelector("[data-error-page]") ? GeneralErrorBoundary.preload() : undefined;
}
