import type { LoaderFunctionArgs } from "@remix-run/node";
import type { MetaFunction } from "@remix-run/react";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { safeHref } from "~db/platform-links";
import { listActivePartnerships } from "~db/repositories/partnerships.server";
import { cachedRead } from "~db/read-cache.server";
import { listPlatforms } from "~db/repositories/platforms.server";
import { countAvailableByPlatform } from "~db/repositories/code-counts.server";
import { listOfferLeadsOf } from "~db/repositories/platform-offers.server";
import { offerLead } from "~/features/offer/offer";
import { brandMarkOf } from "~/features/codes/brand-marks.server";
import { getSettings } from "~db/repositories/settings.server";
import { DEFAULT_SETTINGS } from "~db/seed-data";
import * as styles from "~/features/community/community.css";
import { toPartnerView } from "~/features/community/partner-card";
import { PartnerStrip } from "~/features/community/partner-strip";
import { PlatformCarousel } from "~/features/community/platform-carousel";
import { organizationLd } from "~/features/community/structured-data";
import { GameMount } from "~/features/game/game-mount";
import { getLanguage, getT } from "~/i18n/i18next.server";
import { badge, card, container, flush, gradientHero, muted, section, visuallyHidden } from "~/styles/ui.css";
import { getEnv } from "~/utils/env.server";
import { languageUrl, routeMeta, SITE_NAME } from "~/utils/meta";
import { loadOrFail, withDatabaseNet } from "~/utils/failures.server";
import type { SitemapHandle } from "~/features/community/sitemap";

export const handle = {
  i18n: ["home", "partnerships", "trust"],
  sitemap: { changefreq: "daily", priority: 1.0, lastmod: "content" } satisfies SitemapHandle,
};

/** How many platforms the home page's carousel and partners its strip show at most (decision 242). */
const HOME_PLATFORMS_MAX = 24;
const HOME_PARTNERS_MAX = 12;

export const loader = withDatabaseNet(async function loader({ request }: LoaderFunctionArgs) {
  const [t, language, platforms, partners, settings, available] = await Promise.all([
    getT(request, "home"),
    getLanguage(request),
    // The home page is bounded whatever the catalogue's size (decision 242): its first platforms and
    // partners by the admin's order; the header, the menu and "Voir tout" lead to the whole lists.
    // Read through the read cache (decision 264): the same for every visitor, kept until a write.
    loadOrFail(request, "errors.load.platforms", () =>
      cachedRead("home:platforms", "catalogue", async () => {
        const shown = await listPlatforms({ shownOn: "homepage", limit: HOME_PLATFORMS_MAX });
        const leads = await listOfferLeadsOf(shown.map((p) => p.id));
        return shown.map((p) => ({ ...p, lead: leads.find((l) => l.platform_id === p.id) }));
      }),
    ),
    loadOrFail(request, "errors.load.generic", () =>
      cachedRead("home:partners", "catalogue", () => listActivePartnerships({ limit: HOME_PARTNERS_MAX })),
    ),
    getSettings(),
    // How many codes each card's platform has to draw now: the kept counts (one row per platform)
    // less two small index ranges (code-counts.server.ts), never a scan of the codes; an activity
    // read, kept until the next write.
    loadOrFail(request, "errors.load.platforms", () =>
      cachedRead("home:available", "activity", () => countAvailableByPlatform()),
    ),
  ]);
  const trackerName = settings.price_tracker_name.trim() || DEFAULT_SETTINGS.price_tracker_name;
  const trackerUrl = safeHref(settings.price_tracker_url) ?? DEFAULT_SETTINGS.price_tracker_url;
  const siteUrl = getEnv().SITE_URL;
  const tt = await getT(request, "trust");
  return {
    feed: { href: languageUrl(`${siteUrl}/feeds/platforms.atom`, language), title: tt("feed.title", { site: SITE_NAME }) },
    platforms: platforms.map((p) => ({
      slug: p.slug,
      name: p.name,
      emoji: p.emoji_icon,
      mark: brandMarkOf(p.slug),
      logoLight: p.custom_logo_light_url,
      logoDark: p.custom_logo_dark_url,
      from: p.gradient_from,
      to: p.gradient_to,
      bonus: offerLead(p.lead, language),
      available: available.get(p.id) ?? 0,
    })),
    partners: partners.map((p) => toPartnerView(p, language)),
    tracker: { name: trackerName, url: trackerUrl },
    meta: {
      title: t("meta.title"),
      description: t("meta.description"),
      path: "/",
      structuredData: organizationLd(siteUrl, t("meta.description")),
    },
  };
});

/** The page's metadata, plus the platforms feed for feed readers. */
export const meta: MetaFunction<typeof loader> = (args) => [
  ...routeMeta(args),
  ...(args.data
    ? [
        {
          tagName: "link",
          rel: "alternate",
          type: "application/atom+xml",
          title: args.data.feed.title,
          href: args.data.feed.href,
        },
      ]
    : []),
];

const STEPS = ["choose", "get", "share"] as const;

export default function Home() {
  const { platforms, partners, tracker } = useLoaderData<typeof loader>();
  const { t } = useTranslation("home");
  return (
    <div className={container}>
      {/* The hidden constellation game: nothing without JS; with JS, its chunk loads once the page is idle. */}
      <GameMount />
      <section id="home-hero" className={gradientHero} aria-labelledby="hero-heading">
        <h1 id="hero-heading">{t("hero.title")}</h1>
        <p>{t("hero.subtitle")}</p>
        <div className={styles.heroActions}>
          {/* Getting a code is the main action, and it starts by choosing the platform (a random
              brand's code serves nobody); sharing one's code comes second. */}
          <Link to="/platforms" className={styles.heroPrimary} data-testid="hero-draw">
            {t("hero.draw")}
          </Link>
          <Link to="/submit" className={styles.heroLink} data-testid="hero-share">
            {t("hero.share")}
          </Link>
        </div>
      </section>

      <section className={section} aria-labelledby="platforms-heading">
        <h2 id="platforms-heading" tabIndex={-1}>
          {t("platforms.heading")}
        </h2>
        <PlatformCarousel platforms={platforms} />
        <p className={styles.allPlatforms}>
          <Link to="/platforms" data-testid="all-platforms-link">
            {t("platforms.all")}
          </Link>
        </p>
      </section>

      <section className={section} aria-labelledby="steps-heading">
        <h2 id="steps-heading">{t("steps.heading")}</h2>
        <ol className={styles.steps}>
          {STEPS.map((step, i) => (
            <li key={step} className={card}>
              <span className={styles.stepNumber} aria-hidden="true">
                {i + 1}
              </span>
              <h3>{t(`steps.${step}.title`)}</h3>
              <p className={`${muted} ${flush}`}>{t(`steps.${step}.text`)}</p>
            </li>
          ))}
        </ol>
      </section>

      <section className={section} aria-labelledby="promo-heading">
        <div className={`${card} ${styles.promo}`} data-testid="price-tracker-promo">
          <span className={`${badge} ${styles.promoFree}`}>{t("promo.free")}</span>
          <h2 id="promo-heading" className={flush}>
            {t("promo.title", { name: tracker.name })}
          </h2>
          <p className={`${muted} ${flush}`}>{t("promo.text")}</p>
          <ul className={styles.featureList}>
            <li>{t("promo.feature1")}</li>
            <li>{t("promo.feature2")}</li>
            <li>{t("promo.feature3")}</li>
          </ul>
          <p className={flush}>
            <a href={tracker.url} target="_blank" rel="sponsored noopener noreferrer" className={styles.promoLink}>
              {t("promo.cta", { name: tracker.name })}
              <span className={visuallyHidden}> {t("promo.newTab")}</span>
            </a>
          </p>
        </div>
      </section>

      <PartnerStrip partners={partners} />
    </div>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-pages";
