import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import * as styles from "~/features/community/community.css";
import { legalMeta } from "~/features/community/legal-page.server";
import { privacyFacts } from "~/features/community/privacy-page.server";
import { ServerHtml } from "~/components/server-html";
import { muted, narrow, section } from "~/styles/ui.css";
import { routeMeta } from "~/utils/meta";
import type { SitemapHandle } from "~/features/community/sitemap";
import { SiteLink } from "~/components/site-link";

export const handle = {
  i18n: ["legal"],
  sitemap: { changefreq: "yearly", priority: 0.3, lastmod: "2026-12-05" } satisfies SitemapHandle,
};

export async function loader({ request }: LoaderFunctionArgs) {
  const [meta, facts] = await Promise.all([legalMeta(request, "privacy"), privacyFacts()]);
  return { meta, facts };
}

export const meta = routeMeta;

/** Each processing and its legal basis (GDPR art. 6). */
const PROCESSING = [
  ["codes", "contract"],
  ["ownerLink", "contract"],
  ["draws", "legitimate"],
  ["answers", "legitimate"],
  ["suggestions", "legitimate"],
  ["deletions", "legitimate"],
  ["removals", "legal"],
  ["scores", "consent"],
  ["limits", "legitimate"],
  ["logs", "legitimate"],
  ["assistant", "legitimate"],
  ["google", "consent"],
] as const;

const RIGHTS = ["access", "rectification", "erasure", "objection", "restriction", "portability", "withdraw"] as const;

/**
 * The privacy policy (GDPR art. 13) and the legal notice, from the publisher's settings and the
 * retention list the jobs keep (decision 320).
 */
export default function Privacy() {
  const { facts } = useLoaderData<typeof loader>();
  const { t } = useTranslation("legal");
  const missing = t("privacy.controller.missing");
  const name = facts.publisher.name ?? missing;
  const email = facts.publisher.email ?? missing;
  const address = facts.publisher.address ?? missing;
  const host = facts.host ?? missing;
  const p = facts.periods;
  const retention: Array<[string, string]> = [
    ["codes", t(facts.autoCleanup ? "privacy.retention.codesCleanup" : "privacy.retention.codesKept", { count: p.codeMonths })],
    ["draws", t("privacy.retention.draws", { count: p.drawDays })],
    ["answers", t("privacy.retention.answers", { count: p.answerDays })],
    ["answerAddresses", t("privacy.retention.answerAddresses", { count: p.answerAddressDays })],
    ["votes", t("privacy.retention.votes", { count: p.voteDays })],
    ["suggestions", t("privacy.retention.suggestions", { count: p.suggestionDays })],
    ["deletions", t("privacy.retention.deletions", { count: p.deletionRequestDays })],
    ["removals", t("privacy.retention.removals", { count: p.removalRequestDays })],
    ["scores", t("privacy.retention.scores", { count: p.scoreDays })],
    ["assistant", t("privacy.retention.assistant", { count: p.conversationDays })],
    ["limits", t("privacy.retention.limits", { count: p.rateLimitMinutes })],
    ["keys", t("privacy.retention.keys", { count: p.pseudonymKeyMonths })],
    ["backups", t("privacy.retention.backups", { count: p.backupHours })],
    ["cookies", t("privacy.retention.cookies")],
  ];
  return (
    // Legal text: kept as the server rendered it, never hydrated.
    <ServerHtml as="article" id="privacy" className={`${narrow} ${section} ${styles.prose}`}>
      <h1>{t("privacy.heading")}</h1>
      <p>{t("privacy.intro")}</p>

      <h2 id="controller">{t("privacy.controller.title")}</h2>
      <p data-testid="privacy-controller">{t("privacy.controller.text", { name, address })}</p>
      <p data-testid="privacy-contact">{t("privacy.controller.contact", { email })}</p>

      <h2 id="processing">{t("privacy.processing.title")}</h2>
      <ul data-testid="privacy-processing">
        {PROCESSING.map(([key, basis]) => (
          <li key={key} data-processing={key}>
            {t(`privacy.processing.${key}`)} <em>{t(`privacy.processing.bases.${basis}`)}</em>
          </li>
        ))}
      </ul>

      <h2 id="pseudonyms">{t("privacy.pseudonyms.title")}</h2>
      <p>{t("privacy.pseudonyms.text")}</p>

      <h2 id="retention">{t("privacy.retention.title")}</h2>
      <ul data-testid="privacy-retention">
        {retention.map(([key, text]) => (
          <li key={key} data-retention={key}>
            {text}
          </li>
        ))}
      </ul>

      <h2 id="recipients">{t("privacy.recipients.title")}</h2>
      <p>{t("privacy.recipients.intro")}</p>
      <ul data-testid="privacy-recipients">
        <li>{t("privacy.recipients.host", { host })}</li>
        <li>{t("privacy.recipients.google")}</li>
        <li>{t("privacy.recipients.ai", { provider: facts.aiProvider })}</li>
      </ul>

      <h2 id="transfers">{t("privacy.transfers.title")}</h2>
      <p data-testid="privacy-transfers">{t("privacy.transfers.text")}</p>

      <h2 id="rights">{t("privacy.rights.title")}</h2>
      <p>{t("privacy.rights.intro")}</p>
      <ul data-testid="privacy-rights">
        {RIGHTS.map((right) => (
          <li key={right}>{t(`privacy.rights.${right}`)}</li>
        ))}
      </ul>
      <p>{t("privacy.rights.how", { email })}</p>
      <p>
        <SiteLink to="/privacy/removal" data-testid="privacy-removal-link">
          {t("privacy.rights.link")}
        </SiteLink>
      </p>
      <p data-testid="privacy-complaint">{t("privacy.rights.complaint")}</p>

      <h2 id="cookies">{t("privacy.cookies.title")}</h2>
      <ul>
        {(["clientId", "preferences", "consent", "ownerLink", "toast"] as const).map((key) => (
          <li key={key}>{t(`privacy.cookies.${key}`)}</li>
        ))}
      </ul>
      <p>{t("privacy.cookies.thirdParty")}</p>

      <h2 id="legal-notice">{t("privacy.legal.title")}</h2>
      <p data-testid="legal-publisher">{t("privacy.legal.publisher", { name, address, email })}</p>
      <p data-testid="legal-host">{t("privacy.legal.host", { host })}</p>
      <p className={muted}>{t("privacy.updated")}</p>
    </ServerHtml>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
