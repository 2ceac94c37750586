import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PAUSE_RULE } from "~db/repositories/code-reports.server";
import { FAIRNESS_PAGE_SIZE, listPlatformFairness } from "~db/repositories/fairness.server";
import { Pager } from "~/components/pager";
import { ServesChart } from "~/features/trust/serves-chart";
import { getT } from "~/i18n/i18next.server";
import { card, container, grid, muted, section, stack } from "~/styles/ui.css";
import { routeMeta } from "~/utils/meta";
import { loadPage } from "~/utils/paging.server";
import * as trust from "~/features/trust/trust.css";
import type { SitemapHandle } from "~/features/community/sitemap";
import { ledgerHeads } from "~db/repositories/ledger.server";
import { getEnv } from "~/utils/env.server";
import { withDatabaseNet } from "~/utils/failures.server";

export const handle = {
  i18n: ["trust", "lists"],
  sitemap: { changefreq: "daily", priority: 0.5, lastmod: "content" } satisfies SitemapHandle,
};

export const loader = withDatabaseNet(async function loader({ request }: LoaderFunctionArgs) {
  // `?platform=` narrows to one platform (its own page links here that way); otherwise a page of
  // FAIRNESS_PAGE_SIZE platforms, in the order the site lists them.
  const slug = new URL(request.url).searchParams.get("platform")?.slice(0, 100) || null;
  const [t, { rows: platforms, pager }] = await Promise.all([
    getT(request, "trust"),
    loadPage(request, "errors.load.generic", (page) => listPlatformFairness({ page, slug }), FAIRNESS_PAGE_SIZE),
  ]);
  // The ledger's head hashes of the platforms on this page (issue 61): copies outside our reach.
  const heads = await ledgerHeads(getEnv().SESSION_SECRET, new Date(), { slugs: platforms.map((p) => p.slug) });
  const headOf = new Map(heads.map((h) => [h.platform, h]));
  return {
    slug,
    pager,
    platforms: platforms.map((p) => ({
      name: p.name,
      slug: p.slug,
      inRotation: p.inRotation,
      draws: p.drawsLast30Days,
      spread: p.serves.length > 0 ? p.serves[0]! - p.serves[p.serves.length - 1]! : null,
      serves: p.serves,
      ledger: headOf.get(p.slug)?.day ? { day: headOf.get(p.slug)!.day!, sha256: headOf.get(p.slug)!.sha256! } : null,
    })),
    rule: PAUSE_RULE,
    meta: { title: t("fairness.title"), description: t("fairness.description"), path: "/fairness" },
  };
});

export const meta = routeMeta;

const EXPLANATION = ["order", "entering", "count", "paused", "limits", "nothingForSale"] as const;

export default function FairnessPage() {
  const { platforms, rule, pager, slug } = useLoaderData<typeof loader>();
  const { t } = useTranslation("trust");
  return (
    <div className={container}>
      <section className={`${section} ${stack}`} aria-labelledby="fairness-heading">
        <h1 id="fairness-heading">{t("fairness.heading")}</h1>
        {EXPLANATION.map((key) => (
          <p key={key} className={trust.measure}>
            {t(`fairness.explain.${key}`, {
              addresses: rule.minFailedAddresses,
              percent: rule.minFailedPercent,
              window: rule.window,
            })}
          </p>
        ))}
        <p className={trust.measure}>
          <Link to="/fairness/ledger" data-testid="fairness-ledger-link">
            {t("ledger.fairnessLink")}
          </Link>
        </p>
      </section>
      <section aria-labelledby="per-platform-heading" className={stack}>
        <h2 id="per-platform-heading">{t("fairness.perPlatform")}</h2>
        <p className={`${muted} ${trust.flush}`}>{t("fairness.spreadHint")}</p>
        {slug ? (
          <p className={trust.flush}>
            {platforms[0] ? `${t("fairness.onePlatform", { name: platforms[0].name })} ` : null}
            <Link to="/fairness" data-testid="fairness-all">
              {t("fairness.allPlatforms")}
            </Link>
          </p>
        ) : null}
        {platforms.length === 0 ? (
          <p className={muted}>{t("fairness.empty")}</p>
        ) : (
          <ul className={`${grid} ${trust.plainList}`}>
            {platforms.map((p) => (
              <li key={p.slug} className={`${card} ${stack}`} data-testid="fairness-platform" data-slug={p.slug}>
                <h3 className={trust.flush}>
                  <Link to={`/${p.slug}`}>{p.name}</Link>
                </h3>
                <dl className={trust.flush}>
                  <div>
                    <dt className={trust.inlineTerm}>{t("fairness.inRotation")} </dt>
                    <dd className={trust.inlineValue} data-testid="fairness-in-rotation">
                      {p.inRotation}
                    </dd>
                  </div>
                  <div>
                    <dt className={trust.inlineTerm}>{t("fairness.draws30")} </dt>
                    <dd className={trust.inlineValue} data-testid="fairness-draws">
                      {p.draws}
                    </dd>
                  </div>
                  <div>
                    <dt className={trust.inlineTerm}>{t("fairness.spread")} </dt>
                    <dd className={trust.inlineValue} data-testid="fairness-spread">
                      {p.spread === null ? "—" : p.spread}
                    </dd>
                  </div>
                </dl>
                {p.serves.length > 0 ? (
                  <ServesChart
                    serves={p.serves}
                    testId="fairness-chart"
                    label={t("fairness.chartLabel", {
                      count: p.inRotation,
                      name: p.name,
                      max: p.serves[0],
                      min: p.serves[p.serves.length - 1],
                    })}
                  />
                ) : (
                  <p className={`${muted} ${trust.flush}`}>{t("fairness.noCodes")}</p>
                )}
                {p.ledger ? (
                  <p className={`${muted} ${trust.flush} ${trust.hash}`} data-testid="fairness-ledger-head">
                    {t("ledger.fairnessHead", { day: p.ledger.day, sha: p.ledger.sha256 })}
                  </p>
                ) : null}
              </li>
            ))}
          </ul>
        )}
        <Pager {...pager} label={t("fairness.pagerLabel")} />
      </section>
    </div>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-pages";
