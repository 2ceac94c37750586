import type { HeadersFunction, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import {
  data,
  Links,
  Meta,
  Outlet,
  redirect,
  Scripts,
  ScrollRestoration,
  useMatches,
  useRouteLoaderData,
} from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useChangeLanguage } from "remix-i18next/react";
import { getSettings } from "~db/repositories/settings.server";
import { GeneralErrorBoundary } from "./components/error-pages";
import { AnalyticsBody, AnalyticsHead, ConsentBanner } from "./features/consent/consent-parts";
import { analyticsForRequest } from "./features/consent/consent.server";
import { FirstPaintHold } from "./components/first-paint-hold";
import { SiteFooter } from "./components/site-footer";
import { LanguageOffer } from "./components/language-offer";
import { SiteHeader } from "./components/site-header";
import { ToastRegion } from "./components/toast";
import { chosenLanguageUrl, getLanguage, getT, offeredLanguage } from "./i18n/i18next.server";
import { isLanguage } from "./i18n/config";
import "./styles/global.css";
import * as layout from "./styles/layout.css";
import { LANGUAGE_COOKIE, preferenceCookie, readCookie, THEME_COOKIE } from "./utils/cookies.server";
import { getEnv } from "./utils/env.server";
import type { PageMeta } from "./utils/meta";
import { keepRetryAfter } from "./utils/responses.server";
import { languageUrl, routeMeta } from "./utils/meta";
import { LiveAnnouncer } from "./utils/arrival-focus";
import { useNonce } from "./utils/nonce";
import type { RootData } from "./utils/root-data";
import { SiteStylesheet } from "./utils/site-css";
import { DEFAULT_THEME, isTheme } from "./utils/theme";
import { getToast } from "./utils/toast.server";
import { withDatabaseNet } from "~/utils/failures.server";

// PNG icons, not the SVG they are drawn from (public/favicon.svg, scripts/make-icons.mjs): the
// browser decodes a page's icon and its web manifest's icon in the page's own renderer, and an SVG
// is a whole document to build each time, about 3 % of a platform page's main-thread work on a
// slow phone (decision 274).
export const links: LinksFunction = () => [
  { rel: "icon", href: "/favicon-48.png", type: "image/png", sizes: "48x48" },
  { rel: "apple-touch-icon", href: "/apple-touch-icon.png" },
  { rel: "manifest", href: "/site.webmanifest" },
];

export const loader = withDatabaseNet(async function loader({ request }: LoaderFunctionArgs) {
  // One URL, one language (decision 220): a bare URL is French; a visitor who chose another
  // language is sent on to that language's URL before anything is read (the toast stays for it).
  const chosen = chosenLanguageUrl(request);
  if (chosen) throw redirect(chosen, { status: 302, headers: { Vary: "Cookie", "Cache-Control": "private, no-cache" } });
  const env = getEnv();
  const [language, settings, { toast, headers: toastHeaders }, t, analytics, offer] = await Promise.all([
    getLanguage(request),
    getSettings(),
    getToast(request),
    getT(request, "common"),
    analyticsForRequest(request),
    offeredLanguage(request),
  ]);
  const cookieTheme = readCookie(request, THEME_COOKIE);
  const theme = isTheme(cookieTheme) ? cookieTheme : DEFAULT_THEME;

  const headers = new Headers(toastHeaders ?? undefined);
  // `?lng=xx` is a choice: the cookie keeps it, and sends bare URLs on to that language (decision 220).
  const asked = new URL(request.url).searchParams.get("lng");
  if (isLanguage(asked) && readCookie(request, LANGUAGE_COOKIE) !== asked) {
    headers.append("Set-Cookie", preferenceCookie(LANGUAGE_COOKIE, asked));
  }
  headers.set("Vary", "Cookie, Accept-Language");

  const meta: PageMeta = { title: t("meta.defaultTitle"), description: t("meta.defaultDescription") };
  return data(
    {
      language,
      theme,
      siteUrl: env.SITE_URL,
      themeToggleEnabled: settings.enable_theme_toggle === "true",
      toast: toast ? { ...toast, id: crypto.randomUUID() } : null,
      meta,
      analytics,
      languageOffer: offer ? { ...offer, href: languageUrl(pathAndQuery(request), offer.language) } : null,
    } satisfies RootData & Record<string, unknown>,
    { headers },
  );
});

function pathAndQuery(request: Request): string {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}`;
}

/**
 * Every page depends on the language, theme and consent cookies: say so to caches. A thrown 429
 * keeps its Retry-After on the rendered error page.
 */
export const headers: HeadersFunction = (args) => {
  const headers = new Headers(keepRetryAfter(args));
  headers.set("Vary", args.loaderHeaders.get("Vary") ?? "Cookie, Accept-Language");
  headers.set("Cache-Control", "private, no-cache");
  return headers;
};

export const meta = routeMeta;

function useRootLoaderData() {
  return useRouteLoaderData<typeof loader>("root");
}

export function Layout({ children }: { children: React.ReactNode }) {
  const root = useRootLoaderData();
  const nonce = useNonce();
  const { i18n } = useTranslation();
  const language = root?.language ?? i18n.language ?? "fr";
  const theme = root?.theme ?? DEFAULT_THEME;
  return (
    <html lang={language} data-theme={theme} dir="ltr">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="dark light" />
        <Meta />
        <SiteStylesheet />
        <Links />
        {root?.analytics.active ? <AnalyticsHead config={root.analytics.active} /> : null}
        <FirstPaintHold />
      </head>
      <body>
        <a className={layout.skipLink} href="#main">
          {i18n.t("common:nav.skipToContent")}
        </a>
        {root?.languageOffer ? <LanguageOffer {...root.languageOffer} /> : null}
        <SiteHeader />
        <main id="main" tabIndex={-1} className={layout.main}>
          {children}
        </main>
        {root?.analytics.active ? <AnalyticsBody config={root.analytics.active} /> : null}
        <SiteFooter />
        {root?.analytics.bannerNeeded ? <ConsentBanner answered={root.analytics.answered} /> : null}
        <ToastRegion />
        <LiveAnnouncer />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

/** Every namespace the matched routes declare in `handle.i18n`. */
function useRouteNamespaces(): string[] {
  const matches = useMatches();
  const names = new Set<string>();
  for (const match of matches) {
    const wanted = (match.handle as { i18n?: string | string[] } | undefined)?.i18n;
    for (const ns of typeof wanted === "string" ? [wanted] : (wanted ?? [])) names.add(ns);
  }
  return [...names];
}

export default function App() {
  const root = useRootLoaderData();
  useChangeLanguage(root?.language ?? "fr");
  // A client-side navigation to a page whose translations are not loaded yet suspends here, inside
  // the router's transition: the old page stays until they arrive, so no raw key ever shows
  // (hydration never waits: entry.client loads the first page's namespaces before it).
  useTranslation(useRouteNamespaces(), { useSuspense: true });
  return <Outlet />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
