import { useLocation, useNavigate } from "@remix-run/react";
import { createElement, useEffect, useState, type HTMLAttributes, type MouseEvent, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

/** Set after the first hydration commit: from then on every ServerHtml renders its children. */
let hydrationDone = false;

type Tag = "div" | "section" | "footer" | "article" | "ul" | "ol";

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
 * client: one delegated click listener hands same-origin links to Remix's router.
 */
export function ServerHtml({ id, as = "div", children, onClick, ...props }: ServerHtmlProps) {
  const location = useLocation();
  const { i18n } = useTranslation();
  const [kept] = useState(() => {
    if (hydrationDone || typeof document === "undefined") return null;
    const html = document.getElementById(id)?.innerHTML;
    return html === undefined ? null : { html, key: location.key, language: i18n.language };
  });
  useEffect(() => {
    hydrationDone = true;
  }, []);
  const navigate = useNavigate();
  const frozen = kept !== null && kept.key === location.key && kept.language === i18n.language;

  const followLink = (event: MouseEvent<HTMLElement>) => {
    onClick?.(event);
    if (!frozen || event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = (event.target as Element).closest?.("a[href]");
    if (!(link instanceof HTMLAnchorElement) || !event.currentTarget.contains(link)) return;
    if ((link.target && link.target !== "_self") || link.hasAttribute("download") || link.hasAttribute("data-reload")) return;
    const url = new URL(link.href);
    if (url.origin !== window.location.origin) return;
    event.preventDefault();
    navigate(url.pathname + url.search + url.hash);
  };

  if (frozen) {
    return createElement(as, {
      ...props,
      id,
      onClick: followLink,
      dangerouslySetInnerHTML: { __html: kept.html },
      suppressHydrationWarning: true,
    });
  }
  return createElement(as, { ...props, id, onClick: followLink }, children);
}
