import { useNavigate } from "@remix-run/react";
import { useEffect, type AnchorHTMLAttributes } from "react";

interface SiteLinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> {
  /** A path of this site ("/submit", "/tesla?lng=en", "?page=2"). */
  to: string;
}

/**
 * A link to a page of this site: the HTML Remix's `<Link>` writes (`data-discover` marks it for the
 * listener below; route discovery itself is off, decision 402), but a plain element. Remix's `<Link>` runs a dozen hooks per link at every render
 * and hydration (href resolution, the click handler, the prefetch state, merged refs); on a cheap
 * phone that was a visible share of each page's main-thread work (decision 263). One listener for the
 * whole document (`useSiteLinkNavigation`) turns a plain click on any of them into Remix's client
 * navigation.
 */
export function SiteLink({ to, children, ...props }: SiteLinkProps) {
  return (
    <a href={to} data-discover="true" {...props}>
      {children}
    </a>
  );
}

/**
 * What a click on a site link does with JavaScript: a plain left click without a modifier on a
 * same-origin link marked `data-discover` (SiteLink's; Remix's own `<Link>` handles its clicks
 * itself) becomes Remix's client navigation, as `<Link>`'s own handler does (replacing the history
 * entry when the URL is the current one). Everything else is the browser's: modified and middle
 * clicks, `target`, `download`, `data-reload`, another origin, a jump to an anchor of the same page
 * (the browser moves focus there), a click a handler already took (`defaultPrevented`), and every
 * link not so marked (feeds, JSON, files).
 *
 * Listening on `window`, the handler runs after React's own listeners on the document.
 */
export function useSiteLinkNavigation() {
  const navigate = useNavigate();
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
      if (!(link instanceof HTMLAnchorElement) || !link.hasAttribute("data-discover")) return;
      if ((link.target && link.target !== "_self") || link.hasAttribute("download") || link.hasAttribute("data-reload")) return;
      const url = new URL(link.href);
      const here = window.location;
      if (url.origin !== here.origin) return;
      const samePage = url.pathname === here.pathname && url.search === here.search;
      if (samePage && url.hash) return;
      event.preventDefault();
      const to = url.pathname + url.search + url.hash;
      navigate(to, { replace: samePage && !here.hash });
    };
    window.addEventListener("click", onClick);
    return () => window.removeEventListener("click", onClick);
  }, [navigate]);
}
