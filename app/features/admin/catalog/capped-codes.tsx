import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import * as admin from "../admin.css";
import { RowAction } from "../row-action";
import { card, muted, stack } from "~/styles/ui.css";
import { formatDate } from "~/utils/dates";
import { ReasonTally, type ReasonCounts } from "~/features/offer/reason-tally";
import * as styles from "~/features/offer/offer.css";

export interface CappedCodeView {
  id: number;
  code: string;
  platformName: string;
  platformSlug: string;
  cappedUntil: string;
  /** Why its answers failed over the last 90 days. */
  reasons: ReasonCounts;
}

/** Admin, codes tab: codes on their monthly cap (back by themselves), and a button to put one back now. */
export function CappedCodes({ codes }: { codes: CappedCodeView[] }) {
  const { t, i18n } = useTranslation("offer");
  return (
    <section className={`${card} ${stack}`} aria-labelledby="capped-heading" data-testid="capped-codes">
      <h3 id="capped-heading" className={styles.flush}>
        {t("admin.cappedHeading", { count: codes.length })}
      </h3>
      <p className={`${muted} ${styles.flush}`}>{t("admin.cappedIntro")}</p>
      {codes.length === 0 ? null : (
        <ul className={`${stack} ${styles.plainList}`}>
          {codes.map((c) => (
            <li key={c.id} className={stack} data-testid={`capped-${c.code}`}>
              <div className={admin.actions}>
                <strong>{c.code}</strong>
                <Link to={`/admin/codes?platform=${encodeURIComponent(c.platformSlug)}`}>{c.platformName}</Link>
                <span data-testid="capped-state">
                  {t("admin.cappedUntil", { date: formatDate(c.cappedUntil, i18n.language) })}
                </span>
                <RowAction intent="lift-cap" id={c.id} label={t("admin.liftCap")} subject={c.code} />
              </div>
              <ReasonTally tally={c.reasons} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
