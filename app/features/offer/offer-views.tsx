import { useTranslation } from "react-i18next";
import { card, muted, stack } from "~/styles/ui.css";
import { formatDate } from "~/utils/dates";
import { OFFER_STALE_DAYS, type Ago, type OfferView } from "./offer";
import * as styles from "./offer.css";

/** A YYYY-MM-DD day as the site writes dates (noon UTC: the same day in Paris). */
function formatDay(day: string): string {
  return formatDate(`${day}T12:00:00Z`);
}

/**
 * What the referral gives and how to claim it. On a platform's page (`platform-offer`) and under
 * every draw result (`claim-guide`). Empty texts are not shown; an old check says so.
 */
export function OfferDetails({
  offer,
  hints,
  testId,
  platformName,
  spaced,
}: {
  /** Room above it (under a page's hero). */
  spaced?: boolean;
  offer: OfferView | null;
  hints: HintCounts;
  testId: "platform-offer" | "claim-guide";
  platformName: string;
}) {
  const { t } = useTranslation("offer");
  const headingId = `${testId}-heading`;
  const claim = testId === "claim-guide";
  const hinted = HINT_ORDER.filter((r) => (hints[r] ?? 0) > 0);
  if (!offer && hinted.length === 0) return null;
  return (
    <section className={`${card} ${stack} ${spaced ? styles.spaced : ""}`} aria-labelledby={headingId} data-testid={testId}>
      <h2 id={headingId} className={styles.flush}>
        {claim ? t("guide.claimHeading") : t("guide.heading", { name: platformName })}
      </h2>
      {offer && (offer.referee || offer.referrer || offer.conditions) ? (
        <dl className={styles.facts}>
          {offer.referee ? <Fact term={t("guide.referee")} value={offer.referee} testId="offer-referee" /> : null}
          {offer.referrer ? <Fact term={t("guide.referrer")} value={offer.referrer} testId="offer-referrer" /> : null}
          {offer.conditions ? <Fact term={t("guide.conditions")} value={offer.conditions} testId="offer-conditions" /> : null}
        </dl>
      ) : null}
      {offer && offer.steps.length > 0 ? (
        <div>
          <h3 className={styles.flush}>{t("guide.steps")}</h3>
          <ol className={styles.steps} data-testid="offer-steps">
            {offer.steps.map((step, i) => (
              <li key={i}>{step}</li>
            ))}
          </ol>
        </div>
      ) : null}
      {hinted.length > 0 ? (
        <div data-testid="offer-hints">
          <p className={styles.flush}>{t("hints.heading", { days: 90 })}</p>
          <ul className={styles.steps}>
            {hinted.map((r) => (
              <li key={r} data-reason={r}>
                {t(`hints.${r}`, { count: hints[r] })}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {offer?.checkedOn ? (
        <p className={`${muted} ${styles.flush}`} data-testid="offer-checked" data-stale={offer.stale ? "true" : "false"}>
          {offer.stale
            ? t("guide.checkedStale", { date: formatDay(offer.checkedOn), days: OFFER_STALE_DAYS })
            : t("guide.checked", { date: formatDay(offer.checkedOn) })}
        </p>
      ) : null}
    </section>
  );
}

function Fact({ term, value, testId }: { term: string; value: string; testId: string }) {
  return (
    <div className={styles.fact}>
      <dt className={styles.term}>{term}</dt>
      <dd className={styles.flush} data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

/** "Last worked 3 h ago" (computed on the server, so hydration renders the same text). */
export function LastWorked({ ago }: { ago: Ago | null }) {
  const { t } = useTranslation("offer");
  if (!ago) return null;
  return (
    <p className={styles.flush} data-testid="platform-last-worked">
      {t(`freshness.${ago.unit}`, { count: ago.count })}
    </p>
  );
}

const HINT_ORDER = ["wrong-region", "conditions-not-met"] as const;
export type HintCounts = Partial<Record<(typeof HINT_ORDER)[number], number>>;

export type ReasonCounts = Partial<
  Record<"expired" | "limit-reached" | "wrong-region" | "conditions-not-met" | "other" | "none", number>
>;

const TALLY_ORDER = ["expired", "limit-reached", "wrong-region", "conditions-not-met", "other", "none"] as const;

/** "Expired: 2 · Monthly limit reached: 3 · …": why answers said a code failed. */
export function ReasonTally({ tally, testId = "reason-tally" }: { tally: ReasonCounts; testId?: string }) {
  const { t } = useTranslation("offer");
  const parts = TALLY_ORDER.filter((r) => (tally[r] ?? 0) > 0);
  if (parts.length === 0) return <span data-testid={testId}>{t("reasons.noFailures")}</span>;
  return (
    <ul className={styles.tally} data-testid={testId}>
      {parts.map((r) => (
        <li key={r} data-reason={r}>
          {t("reasons.tallyItem", { reason: t(`reasons.short.${r}`), count: tally[r] })}
        </li>
      ))}
    </ul>
  );
}

/** /platforms: where engines (and curious people) find the same figures as data. */
export function OpenDataLinks() {
  const { t, i18n } = useTranslation("offer");
  const lng = i18n.language === "fr" ? "" : `?lng=${i18n.language}`;
  return (
    <p className={muted} data-testid="open-data">
      {t("openData.text")} <a href={`/api/platforms.json${lng}`}>{t("openData.json")}</a> ·{" "}
      <a href="/llms.txt">{t("openData.llms")}</a>
    </p>
  );
}
