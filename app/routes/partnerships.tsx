import type { LoaderFunctionArgs } from "@remix-run/node";
import { LinkList } from "~/components/link-list";
import { Link, useLoaderData } from "@remix-run/react";
import { assignInlineVars } from "@vanilla-extract/dynamic";
import { useTranslation } from "react-i18next";
import { cachedRead } from "~db/read-cache.server";
import { listActivePartnerships } from "~db/repositories/partnerships.server";
import { listPlatforms, platformDescription } from "~db/repositories/platforms.server";
import * as styles from "~/features/community/community.css";
import { PartnerCard, toPartnerView } from "~/features/community/partner-card";
import { breadcrumbLd } from "~/features/community/structured-data";
import { getLanguage, getT } from "~/i18n/i18next.server";
import { gradientFrom, gradientTo } from "~/styles/theme.css";
import { card, container, flush, grid, muted, section, visuallyHidden } from "~/styles/ui.css";
import { getEnv } from "~/utils/env.server";
import { routeMeta } from "~/utils/meta";
import { buttonClass } from "~/styles/recipes";
import { loadOrFail, withDatabaseNet } from "~/utils/failures.server";
import type { SitemapHandle } from "~/features/community/sitemap";

export const handle = {
  i18n: ["partnerships"],
  sitemap: { changefreq: "weekly", priority: 0.6, lastmod: "partnerships" } satisfies SitemapHandle,
};

export const loader = withDatabaseNet(async function loader({ request }: LoaderFunctionArgs) {
  const [t, language, platforms, partners] = await Promise.all([
    getT(request, "partnerships"),
    getLanguage(request),
    loadOrFail(request, "errors.load.platforms", () =>
      cachedRead("partnerships:platforms", "catalogue", () => listPlatforms({ shownOn: "partnerships" })),
    ),
    loadOrFail(request, "errors.load.generic", () => cachedRead("partnerships:all", "catalogue", () => listActivePartnerships())),
  ]);
  const siteUrl = getEnv().SITE_URL;
  return {
    platforms: platforms.map((p) => ({
      slug: p.slug,
      name: p.name,
      emoji: p.emoji_icon,
      description: platformDescription(p, language),
      from: p.gradient_from,
      to: p.gradient_to,
    })),
    partners: partners.map((p) => toPartnerView(p, language)),
    meta: {
      title: t("meta.title"),
      description: t("meta.description"),
      path: "/partnerships",
      structuredData: breadcrumbLd(
        { siteUrl, language, homeName: t("breadcrumbHome") },
        { name: t("meta.title"), path: "/partnerships" },
      ),
    },
  };
});

export const meta = routeMeta;

export default function Partnerships() {
  const { platforms, partners } = useLoaderData<typeof loader>();
  const { t } = useTranslation("partnerships");
  return (
    <div className={container}>
      <section className={section} aria-labelledby="partnerships-heading">
        <h1 id="partnerships-heading">{t("heading")}</h1>
        <p className={muted}>{t("intro")}</p>
        <h2>{t("platforms.heading")}</h2>
        {platforms.length === 0 ? (
          <p className={muted}>{t("platforms.empty")}</p>
        ) : (
          <ul className={`${grid} ${styles.plainList}`} data-testid="partnership-platforms">
            {platforms.map((p) => (
              <li
                key={p.slug}
                className={`${card} ${styles.platformCard}`}
                style={assignInlineVars({ [gradientFrom]: p.from, [gradientTo]: p.to })}
              >
                <h3 className={flush}>
                  <span aria-hidden="true">{p.emoji} </span>
                  {p.name}
                </h3>
                {p.description ? <p className={`${muted} ${flush}`}>{p.description}</p> : null}
                {/* The accessible name starts with the visible text (then says whose codes). */}
                <Link to={`/${p.slug}`} className={buttonClass({ tone: "gradient" })}>
                  {t("platforms.seeCodes")}
                  <span className={visuallyHidden}> {p.name}</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className={section} aria-labelledby="partners-heading">
        <h2 id="partners-heading">{t("partners.heading")}</h2>
        <p className={muted}>{t("partners.disclosure")}</p>
        {partners.length === 0 ? (
          <p className={muted}>{t("partners.empty")}</p>
        ) : (
          <ul className={`${grid} ${styles.plainList}`} data-testid="partner-list">
            {partners.map((p) => (
              <li key={p.id}>
                <PartnerCard partner={p} />
              </li>
            ))}
          </ul>
        )}
      </section>

      <nav aria-label={t("footer.label")} className={section}>
        <LinkList
          className={styles.footerLinks}
          links={[
            { to: "/privacy", label: t("footer.privacy") },
            { to: "/terms", label: t("footer.terms") },
            { to: "/submit", label: t("footer.submit") },
          ]}
        />
      </nav>
    </div>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-pages";
