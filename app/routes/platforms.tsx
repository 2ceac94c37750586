import type { LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { OpenDataLinks } from "~/features/offer/open-data-links";
import { OfferLead } from "~/features/offer/offer-lead";
import { brandMarkOf } from "~/features/codes/brand-marks.server";
import { PlatformLogo } from "~/features/codes/platform-logo";
import { offerLead } from "~/features/offer/offer";
import { assignInlineVars } from "@vanilla-extract/dynamic";
import { useTranslation } from "react-i18next";
import { cachedRead } from "~db/read-cache.server";
import { listActivePlatformsWithCounts } from "~db/repositories/code-counts.server";
import { platformDescription } from "~db/repositories/platforms.server";
import * as styles from "~/features/community/community.css";
import { normalizeName } from "~/features/community/similarity";
import { breadcrumbLd } from "~/features/community/structured-data";
import { getLanguage, getT } from "~/i18n/i18next.server";
import { gradientFrom, gradientTo } from "~/styles/theme.css";
import { Field } from "~/components/forms";
import { alignEnd, button, card, container, flush, grid, input, muted, row, section } from "~/styles/ui.css";
import { getEnv } from "~/utils/env.server";
import { routeMeta } from "~/utils/meta";
import { loadOrFail, withDatabaseNet } from "~/utils/failures.server";
import type { SitemapHandle } from "~/features/community/sitemap";
import { Pager } from "~/components/pager";

export const handle = {
  i18n: ["platforms", "offer", "lists"],
  sitemap: { changefreq: "daily", priority: 0.7, lastmod: "content" } satisfies SitemapHandle,
};

/** Platforms per page: a multiple of the grid's two and three columns. */
const PAGE_SIZE = 48;

/** Every active platform with its count and its name as the search compares it, read once per 5 s. */
const searchablePlatforms = () =>
  cachedRead("platforms:with-counts", "activity", async () =>
    (await listActivePlatformsWithCounts()).map((p) => ({ ...p, searchName: normalizeName(p.name) })),
  );

export const loader = withDatabaseNet(async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, 100);
  const [t, language, platforms] = await Promise.all([
    getT(request, "platforms"),
    getLanguage(request),
    loadOrFail(request, "errors.load.platforms", searchablePlatforms),
  ]);
  // Accents, case and punctuation ignored: 'trade rep' finds 'Trade Republic'. The list is kept in
  // memory (the read cache): a page walks it and keeps only its own 48 rows.
  const wanted = normalizeName(q);
  const asked = Number(url.searchParams.get("page"));
  let matches = 0;
  for (const p of platforms) if (!wanted || p.searchName.includes(wanted)) matches++;
  const pages = Math.max(1, Math.ceil(matches / PAGE_SIZE));
  const page = Number.isInteger(asked) && asked > 1 ? Math.min(asked, pages) : 1;
  const shown: typeof platforms = [];
  let index = 0;
  for (const p of platforms) {
    if (wanted && !p.searchName.includes(wanted)) continue;
    if (index >= (page - 1) * PAGE_SIZE && shown.length < PAGE_SIZE) shown.push(p);
    index++;
  }
  const pageUrl = (n: number) => {
    const params = new URLSearchParams();
    if (q) params.set("q", q);
    if (n > 1) params.set("page", String(n));
    const query = params.toString();
    return query ? `/platforms?${query}` : "/platforms";
  };
  const siteUrl = getEnv().SITE_URL;
  return {
    q,
    total: platforms.length,
    matches,
    pager: {
      prev: page > 1 ? pageUrl(page - 1) : null,
      next: page < pages ? pageUrl(page + 1) : null,
      total: { count: matches, capped: false },
      shown: shown.length,
    },
    platforms: shown.map((p) => ({
      slug: p.slug,
      name: p.name,
      emoji: p.emoji_icon,
      mark: brandMarkOf(p.slug),
      logoLight: p.custom_logo_light_url,
      logoDark: p.custom_logo_dark_url,
      description: platformDescription(p, language),
      available: p.available,
      bonus: offerLead(p, language),
      from: p.gradient_from,
      to: p.gradient_to,
    })),
    meta: {
      title: t("meta.title"),
      description: t("meta.description"),
      path: pageUrl(page),
      noindex: Boolean(q),
      structuredData: breadcrumbLd(
        { siteUrl, language, homeName: t("breadcrumbHome") },
        { name: t("meta.title"), path: "/platforms" },
      ),
    },
  };
});

export const meta = routeMeta;

export default function Platforms() {
  const { q, total, matches, pager, platforms } = useLoaderData<typeof loader>();
  const { t } = useTranslation("platforms");
  const { t: tl } = useTranslation("lists");
  return (
    <div className={container}>
      <section className={section} aria-labelledby="platforms-heading">
        <h1 id="platforms-heading">{t("heading")}</h1>
        <p className={muted}>{t("intro", { count: total })}</p>
        <Form method="get" role="search" className={`${row} ${styles.searchForm}`} aria-label={t("search.label")}>
          <Field id="platforms-q" label={t("search.label")} className={styles.searchField}>
            {(control) => <input {...control} name="q" type="search" defaultValue={q} className={input} />}
          </Field>
          <button type="submit" className={`${button.secondary} ${alignEnd}`}>
            {t("search.submit")}
          </button>
        </Form>
        {q ? (
          <p className={muted} role="status" data-testid="platforms-result-count">
            {t("search.results", { count: matches, q })} <Link to="/platforms">{t("search.clear")}</Link>
          </p>
        ) : null}
        {platforms.length === 0 ? (
          <p className={muted} data-testid="platforms-empty">
            {q ? t("search.none", { q }) : t("empty")}
          </p>
        ) : (
          <ul className={`${grid} ${styles.plainList}`} data-testid="platform-list">
            {platforms.map((p) => (
              <li
                key={p.slug}
                className={`${card} ${styles.platformCard}`}
                style={assignInlineVars({ [gradientFrom]: p.from, [gradientTo]: p.to })}
                data-testid="platform-item"
                data-slug={p.slug}
              >
                <h2 className={`${styles.platformCardTitle} ${styles.markedTitle}`}>
                  <PlatformLogo name={p.name} emoji={p.emoji} light={p.logoLight} dark={p.logoDark} mark={p.mark} size="card" />
                  <Link to={`/${p.slug}`}>{p.name}</Link>
                </h2>
                <OfferLead text={p.bonus} />
                {p.description ? <p className={`${muted} ${flush}`}>{p.description}</p> : null}
                <p className={flush} data-testid="platform-available">
                  {p.available > 0 ? t("available", { count: p.available }) : t("none")}
                </p>
              </li>
            ))}
          </ul>
        )}
        {pager.prev || pager.next ? <Pager {...pager} label={tl("pager.label")} /> : null}
        <OpenDataLinks />
      </section>
    </div>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-pages";
