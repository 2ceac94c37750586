import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { assignInlineVars } from "@vanilla-extract/dynamic";
import { useTranslation } from "react-i18next";
import { platformDescription } from "~db/repositories/platforms.server";
import * as styles from "~/features/codes/codes.css";
import { PlatformLogo } from "~/features/codes/platform-logo";
import {
  answerFigure,
  availableCodes,
  loadPlatformPage,
  offerSection,
  platformHeader,
} from "~/features/codes/platform-page.server";
import { offerLd } from "~/features/offer/offer.server";
import { OfferDetails } from "~/features/offer/offer-views";
import { OfferLead } from "~/features/offer/offer-lead";
import { AnswerFigure } from "~/features/trust/answer-figure";
import { getLanguage, getT } from "~/i18n/i18next.server";
import { gradientFrom, gradientTo } from "~/styles/theme.css";
import {
  alert,
  bareList,
  card,
  container,
  flush,
  flushTop,
  gradientHero,
  grid,
  leadIn,
  muted,
  section,
  stack,
} from "~/styles/ui.css";
import { getEnv } from "~/utils/env.server";
import { breadcrumbLd } from "~/features/community/structured-data";
import { languageUrl, routeMeta } from "~/utils/meta";
import type { SitemapHandle } from "~/features/community/sitemap";
import { keepRetryAfter } from "~/utils/responses.server";
import { withDatabaseNet } from "~/utils/failures.server";

export const handle = {
  i18n: ["platform", "trust", "offer"],
  sitemap: { changefreq: "daily", priority: 0.9, lastmod: "content" } satisfies SitemapHandle,
};

/**
 * The platform landing page. /{slug}/get-code is a page of its own ($slug_.get-code.tsx), with
 * its own loader: opening it never runs this one. Static routes (submit, random, admin, ...) rank above this single dynamic segment.
 */
export const loader = withDatabaseNet(async function loader({ request, params }: LoaderFunctionArgs) {
  const { platform, preview } = await loadPlatformPage(request, params.slug);
  const language = await getLanguage(request);
  const [t, to, available, figure, section] = await Promise.all([
    getT(request, "platform"),
    getT(request, "offer"),
    availableCodes(platform.id),
    answerFigure(platform.id),
    offerSection(platform.id, language),
  ]);
  const siteUrl = getEnv().SITE_URL;
  const path = `/${platform.slug}`;
  const breadcrumb = breadcrumbLd({ siteUrl, language, homeName: t("breadcrumb.home") }, { name: platform.name, path });
  const offerData = section.offer
    ? offerLd(section.offer, {
        name: platform.name,
        url: languageUrl(`${siteUrl}${path}`, language),
        language,
        title: to("guide.ldTitle", { name: platform.name }),
      })
    : null;
  return {
    platform: { ...platformHeader(platform), description: platformDescription(platform, language) },
    available,
    figure,
    offer: section.offer,
    hints: section.hints,
    preview,
    meta: {
      title: t("meta.title", { name: platform.name }),
      description: t("meta.description", { name: platform.name }),
      path,
      noindex: preview,
      structuredData: offerData ? [breadcrumb, offerData] : breadcrumb,
    },
  };
});

export const meta = routeMeta;
// The layout's headers (Vary, Cache-Control), and a 503 thrown by the loader (the database out of
// reach) keeps its Retry-After.
export const headers = keepRetryAfter;

const BENEFITS = ["fair", "free", "validity"] as const;
const STEPS = ["click", "copy", "enjoy"] as const;

export default function PlatformLanding() {
  const { platform, available, figure, offer, hints, preview } = useLoaderData<typeof loader>();
  const { t } = useTranslation("platform");
  const { t: tt } = useTranslation("trust");
  return (
    <div className={container} style={assignInlineVars({ [gradientFrom]: platform.from, [gradientTo]: platform.to })}>
      {preview ? (
        <p className={`${alert.warning} ${styles.previewBanner}`} role="status" data-testid="preview-banner">
          {t("landing.previewBanner")}
        </p>
      ) : null}
      <section className={gradientHero} aria-labelledby="platform-heading">
        <div className={styles.heroInner}>
          <PlatformLogo
            name={platform.name}
            emoji={platform.emoji}
            light={platform.logoLight}
            dark={platform.logoDark}
            mark={platform.mark}
          />
          <div>
            <h1 id="platform-heading" className={flush}>
              {platform.name}
            </h1>
            <OfferLead text={offer?.referee ?? null} onGradient />
            <p className={leadIn}>{platform.description}</p>
            <p className={styles.count} data-testid="available-count">
              {available > 0 ? t("landing.available", { count: available }) : t("landing.none")}
            </p>
            <AnswerFigure figure={figure} />
          </div>
        </div>
        <div className={styles.heroActions}>
          {/* No code to draw: no button that leads to "no code". */}
          {available > 0 ? (
            <Link to={`/${platform.slug}/get-code`} className={styles.onGradientButton} data-testid="get-code-link">
              {t("landing.getCode", { name: platform.name })}
            </Link>
          ) : null}
          <Link to={`/submit?platform=${encodeURIComponent(platform.slug)}`} className={styles.onGradientButton}>
            {t("landing.submit", { name: platform.name })}
          </Link>
        </div>
      </section>

      <OfferDetails offer={offer} hints={hints} testId="platform-offer" platformName={platform.name} spaced />

      <section className={section} aria-labelledby="benefits-heading">
        <h2 id="benefits-heading">{t("landing.benefitsHeading")}</h2>
        <ul className={`${grid} ${bareList}`}>
          {BENEFITS.map((key) => (
            <li key={key} className={`${card} ${stack}`}>
              <h3 className={flush}>{t(`landing.benefits.${key}.title`)}</h3>
              <p className={`${muted} ${flush}`}>{t(`landing.benefits.${key}.text`)}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="steps-heading">
        <h2 id="steps-heading">{t("landing.stepsHeading")}</h2>
        <ol className={styles.steps}>
          {STEPS.map((key, index) => (
            <li key={key} className={card}>
              <h3 className={flushTop}>
                <span className={styles.stepNumber} aria-hidden="true">
                  {index + 1}
                </span>
                {t(`landing.steps.${key}.title`)}
              </h3>
              <p className={`${muted} ${flush}`}>{t(`landing.steps.${key}.text`, { name: platform.name })}</p>
            </li>
          ))}
        </ol>
        <p>
          <Link to={`/fairness?platform=${platform.slug}`} data-testid="fairness-link">
            {tt("fairness.platformLink")}
          </Link>
        </p>
      </section>
    </div>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-pages";
