import { useLocation } from "@remix-run/react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { buttonClass } from "~/styles/recipes";
import { useNonce } from "~/utils/nonce";
import * as styles from "./consent.css";
import type { AnalyticsConfig } from "./tags";

/**
 * Pages that hold something only one visitor may see (decision 323): a code's owner page (its
 * private link is the address), a draw page (its result's address names the draw, and the result
 * comes on the same page), and the share form (its thank-you shows the new private link). No
 * analytics or ad tag ever runs there, consent or not: a tag reads the page's address and content.
 * A document that started with tags never moves to one of them without a full load
 * (useNoTagsOnPrivatePages), since the tags of the first page stay loaded. Here rather than in a
 * module of its own: anything this module imports lands in every page's layout chunk.
 */
export function isPrivatePage(pathname: string): boolean {
  return /^\/(my-code\/|random$|submit$|[^/]+\/get-code\/?$)/.test(pathname);
}

let guarding = false;

/**
 * The tags a document loaded stay loaded through its client navigations, and would read a private
 * page's address and content (decision 323). So in a document that loaded them, a click on a link
 * to a private page (isPrivatePage) goes no further than the window, where this listener catches it
 * first: Remix's `<Link>` (whose handler React runs on the document) never sees it, and the browser
 * loads that page itself, which the server renders without tags. Set once, for the document's life:
 * the tags do not go when this part unmounts.
 */
function useNoTagsOnPrivatePages() {
  useEffect(() => {
    if (guarding) return;
    guarding = true;
    window.addEventListener(
      "click",
      (event) => {
        const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
        if (link instanceof HTMLAnchorElement && link.origin === window.location.origin && isPrivatePage(link.pathname)) {
          event.stopPropagation();
        }
      },
      true,
    );
  }, []);
}

/**
 * Google tags, rendered only for a visitor who said yes (the root decides). Ids were checked
 * against Google's formats, so they are safe inside the inline scripts; each script carries the
 * CSP nonce. Scripts inserted by React after hydration would not run, so consent is given by a
 * plain form post and the page that follows is a full document.
 */
export function AnalyticsHead({ config }: { config: AnalyticsConfig }) {
  const nonce = useNonce();
  useNoTagsOnPrivatePages();
  const adClient = config.adsenseClient ?? config.adUnit?.client ?? null;
  return (
    <>
      {config.gtmId ? (
        <>
          <script
            nonce={nonce}
            suppressHydrationWarning
            dangerouslySetInnerHTML={{
              __html: "window.dataLayer=window.dataLayer||[];window.dataLayer.push({'gtm.start':Date.now(),event:'gtm.js'});",
            }}
          />
          <script
            async
            nonce={nonce}
            suppressHydrationWarning
            src={`https://www.googletagmanager.com/gtm.js?id=${config.gtmId}`}
          />
        </>
      ) : null}
      {config.ga4Id ? (
        <>
          <script
            async
            nonce={nonce}
            suppressHydrationWarning
            src={`https://www.googletagmanager.com/gtag/js?id=${config.ga4Id}`}
          />
          <script
            nonce={nonce}
            suppressHydrationWarning
            dangerouslySetInnerHTML={{
              __html: `window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments);}gtag('js',new Date());gtag('config',${JSON.stringify(config.ga4Id)});`,
            }}
          />
        </>
      ) : null}
      {adClient ? (
        <script
          async
          nonce={nonce}
          suppressHydrationWarning
          crossOrigin="anonymous"
          src={`https://pagead2.googlesyndication.com/pagead/js/adsbygoogle.js?client=${adClient}`}
        />
      ) : null}
    </>
  );
}

/** GTM's no-JavaScript frame and the AdSense unit of `adsense_body`. */
export function AnalyticsBody({ config }: { config: AnalyticsConfig }) {
  const nonce = useNonce();
  const { t } = useTranslation("consent", { useSuspense: true });
  const unit = config.adUnit;
  return (
    <>
      {config.gtmId ? (
        <noscript>
          <iframe
            title="Google Tag Manager"
            src={`https://www.googletagmanager.com/ns.html?id=${config.gtmId}`}
            height="0"
            width="0"
            className={styles.hiddenFrame}
          />
        </noscript>
      ) : null}
      {unit ? (
        <aside className={styles.adSlot} aria-label={t("adLabel")} data-testid="ad-unit">
          <ins
            className={`adsbygoogle ${styles.adUnit}`}
            data-ad-client={unit.client}
            data-ad-slot={unit.slot}
            data-ad-format={unit.format}
            data-ad-layout={unit.layout}
            data-ad-layout-key={unit.layoutKey}
            data-full-width-responsive={unit.fullWidthResponsive}
          />
          <script
            nonce={nonce}
            suppressHydrationWarning
            dangerouslySetInnerHTML={{ __html: "(window.adsbygoogle=window.adsbygoogle||[]).push({});" }}
          />
        </aside>
      ) : null}
    </>
  );
}

/**
 * The consent banner: two equal buttons in a plain form (works without JavaScript); once answered,
 * a small form to change one's mind.
 */
export function ConsentBanner({ answered }: { answered: boolean }) {
  const { t } = useTranslation("consent", { useSuspense: true });
  const location = useLocation();
  const redirectTo = `${location.pathname}${location.search}`;
  if (answered) {
    return (
      <form method="post" action="/preferences" className={styles.manage}>
        <input type="hidden" name="intent" value="set-consent" />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <button
          type="submit"
          name="consent"
          value="reset"
          className={buttonClass({ tone: "ghost", size: "small" })}
          data-testid="consent-manage"
        >
          {t("manage")}
        </button>
      </form>
    );
  }
  return (
    <section className={styles.banner} aria-labelledby="consent-heading" data-testid="consent-banner">
      <h2 id="consent-heading" className={styles.title}>
        {t("title")}
      </h2>
      <p className={styles.text}>
        {t("text")} <a href="/privacy">{t("privacy")}</a>
      </p>
      <form method="post" action="/preferences" className={styles.actions}>
        <input type="hidden" name="intent" value="set-consent" />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <button type="submit" name="consent" value="granted" className={buttonClass()} data-testid="consent-accept">
          {t("accept")}
        </button>
        <button type="submit" name="consent" value="denied" className={buttonClass()} data-testid="consent-refuse">
          {t("refuse")}
        </button>
      </form>
    </section>
  );
}
