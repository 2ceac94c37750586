import { useTranslation } from "react-i18next";
import { visuallyHidden } from "~/styles/ui.css";
import * as styles from "./offer.css";

/**
 * What the referral gives the new customer, said first (a card, the platform's hero, a draw result):
 * nothing when the admin has set no offer. The gift is drawn, not an emoji a font may lack.
 */
export function OfferLead({ text, onGradient }: { text: string | null; onGradient?: boolean }) {
  const { t } = useTranslation("common");
  if (!text) return null;
  return (
    <p className={onGradient ? `${styles.lead} ${styles.leadOnGradient}` : styles.lead} data-testid="offer-lead">
      <svg className={styles.leadIcon} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <path
          fill="currentColor"
          d="M4 7h7v5H4zm9 0h7v5h-7zM5 13h6v8H5zm8 0h6v8h-6zM11 6C9 2 6 3 7 5s4 2 4 2zm2 0c2-4 5-3 4-1s-4 2-4 2z"
        />
      </svg>
      <span>
        <span className={visuallyHidden}>{t("offerLead")} </span>
        {text}
      </span>
    </p>
  );
}
