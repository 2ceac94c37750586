import { useTranslation } from "react-i18next";
import { visuallyHidden } from "~/styles/ui.css";
import * as styles from "./offer.css";

/**
 * What the referral gives the new customer, said first (a card, the platform's hero, a draw result):
 * nothing when the admin has set no offer. Its gift is drawn by the stylesheet (no emoji a font may
 * lack, no bytes of script). The draw result writes the same markup itself (draw-views.tsx), to keep
 * its half of the page within its script budget.
 */
export function OfferLead({ text, onGradient }: { text: string | null; onGradient?: boolean }) {
  const { t } = useTranslation("common");
  if (!text) return null;
  return (
    <p className={onGradient ? `${styles.lead} ${styles.leadOnGradient}` : styles.lead} data-testid="offer-lead">
      <span className={visuallyHidden}>{t("offerLead")} </span>
      {text}
    </p>
  );
}
