import { useLocation } from "@remix-run/react";
import { createElement, useState, type HTMLAttributes, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useHydrationRender } from "~/utils/use-hydrated";

type Tag = "div" | "section" | "footer" | "article" | "ul" | "ol" | "nav";

interface ServerHtmlProps extends HTMLAttributes<HTMLElement> {
  /** Unique in the page: where hydration finds the server's HTML. */
  id: string;
  as?: Tag;
  children: ReactNode;
}

/**
 * Content that never changes after the server rendered it (descriptions, how-it-works steps, legal
 * text, the footer) costs nothing to hydrate: at hydration the element keeps the server's HTML as it
 * is (read once, handed back as `dangerouslySetInnerHTML`, which React does not walk), so none of the
 * components inside render, match or attach anything in the browser (decision 250).
 *
 * The children render as usual on the server, on a client navigation, and as soon as the location or
 * the language changes after hydration. So: no state, no handlers and no data that changes without a
 * navigation inside (a fetcher's revalidation would not reach it). Links inside still navigate on the
 * client: they are SiteLinks, whose one listener for the whole document (site-link.tsx) hands them to
 * Remix's router, kept HTML or not.
 */
export function ServerHtml({ id, as = "div", children, ...props }: ServerHtmlProps) {
  const location = useLocation();
  const { i18n } = useTranslation();
  // Hydrating, this region too: also true inside a Suspense boundary React hydrates after the rest
  // of the page (a draw result's half), where a flag set at the first commit had already flipped.
  const hydrating = useHydrationRender();
  const [kept] = useState(() => {
    if (!hydrating) return null;
    const html = document.getElementById(id)?.innerHTML;
    return html === undefined ? null : { html, key: location.key, language: i18n.language };
  });
  const frozen = kept !== null && kept.key === location.key && kept.language === i18n.language;

  // `data-server-html` marks the region for `npm run bench -- --only hydration` (decision 251's figure).
  if (frozen) {
    return createElement(as, {
      ...props,
      id,
      "data-server-html": "",
      dangerouslySetInnerHTML: { __html: kept.html },
      suppressHydrationWarning: true,
    });
  }
  return createElement(as, { ...props, id, "data-server-html": "" }, children);
}
