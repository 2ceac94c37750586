import { useTranslation } from "react-i18next";
import { card, muted, stack } from "~/styles/ui.css";
import { formatDate } from "~/utils/dates";
import { OFFER_STALE_DAYS, type OfferView } from "./offer";
import * as styles from "./offer.css";

/** A YYYY-MM-DD day as the site writes dates (noon UTC: the same day in Paris). */
function formatDay(day: string, language: string): string {
  return formatDate(`${day}T12:00:00Z`, language);
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
  const { t, i18n } = useTranslation("offer");
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
            ? t("guide.checkedStale", { date: formatDay(offer.checkedOn, i18n.language), days: OFFER_STALE_DAYS })
            : t("guide.checked", { date: formatDay(offer.checkedOn, i18n.language) })}
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

const HINT_ORDER = ["wrong-region", "conditions-not-met"] as const;
export type HintCounts = Partial<Record<(typeof HINT_ORDER)[number], number>>;
