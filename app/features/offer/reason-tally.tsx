import { useTranslation } from "react-i18next";
import * as styles from "./offer.css";

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
