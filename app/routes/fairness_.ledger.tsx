import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ledgerHeads } from "~db/repositories/ledger.server";
import { getT } from "~/i18n/i18next.server";
import { card, container, muted, section, stack } from "~/styles/ui.css";
import { getEnv } from "~/utils/env.server";
import { routeMeta } from "~/utils/meta";
import * as trust from "~/features/trust/trust.css";
import type { SitemapHandle } from "~/features/community/sitemap";
import { withDatabaseNet } from "~/utils/failures.server";

export const handle = {
  i18n: ["trust"],
  sitemap: { changefreq: "daily", priority: 0.4, lastmod: "content" } satisfies SitemapHandle,
};

/** Platforms whose head is listed here; the rest are one URL away (head.json per platform). */
const HEADS_SHOWN = 100;

export const loader = withDatabaseNet(async function loader({ request }: LoaderFunctionArgs) {
  const env = getEnv();
  const [t, heads] = await Promise.all([
    getT(request, "trust"),
    ledgerHeads(env.SESSION_SECRET, new Date(), { limit: HEADS_SHOWN }),
  ]);
  return {
    site: env.SITE_URL,
    heads,
    meta: { title: t("ledger.title"), description: t("ledger.description"), path: "/fairness/ledger" },
  };
});

export const meta = routeMeta;

const PUBLISHED = ["files", "header", "events", "handles", "chain"] as const;
const CHECK = ["download", "verify", "own"] as const;

export default function LedgerPage() {
  const { heads, site } = useLoaderData<typeof loader>();
  const { t } = useTranslation("trust");
  const example = heads[0];
  return (
    <div className={container}>
      <section className={`${section} ${stack}`} aria-labelledby="ledger-heading">
        <h1 id="ledger-heading">{t("ledger.heading")}</h1>
        <p className={trust.measure}>{t("ledger.intro")}</p>
        <h2>{t("ledger.publishedHeading")}</h2>
        <ul className={trust.measure}>
          {PUBLISHED.map((key) => (
            <li key={key}>{t(`ledger.published.${key}`)}</li>
          ))}
        </ul>
        <h2>{t("ledger.notPublishedHeading")}</h2>
        <p className={trust.measure}>{t("ledger.notPublished")}</p>
        <h2>{t("ledger.checkHeading")}</h2>
        {CHECK.map((key) => (
          <p key={key} className={trust.measure}>
            {t(`ledger.check.${key}`)}
          </p>
        ))}
        <pre className={`${card} ${trust.command}`} data-testid="ledger-command">
          <code>{`npm run fairness:verify -- ${site}${example ? ` --platform ${example.platform}` : ""}`}</code>
        </pre>
        <p className={trust.measure}>
          <Link to="/fairness">{t("ledger.ruleLink")}</Link>
        </p>
      </section>
      <section aria-labelledby="ledger-heads-heading" className={stack}>
        <h2 id="ledger-heads-heading">{t("ledger.headsHeading")}</h2>
        <p className={`${muted} ${trust.flush}`}>{t("ledger.headsHint")}</p>
        {heads.length === 0 ? (
          <p className={muted}>{t("ledger.headsEmpty")}</p>
        ) : (
          <ul className={trust.plainList}>
            {heads.map((head) => (
              <li key={head.platform} data-testid="ledger-head" data-slug={head.platform}>
                <strong>{head.platform}</strong>{" "}
                {head.day ? (
                  <>
                    <a href={`/fairness/ledger/${encodeURIComponent(head.platform)}/${head.day}.jsonl`}>{head.day}</a>{" "}
                    <code className={trust.hash}>{head.sha256}</code>
                  </>
                ) : (
                  <span className={muted}>{t("ledger.noClosedDay")}</span>
                )}{" "}
                {head.open ? (
                  <a href={`/fairness/ledger/${encodeURIComponent(head.platform)}/${head.open}.jsonl`}>{t("ledger.today")}</a>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-pages";
