import { useTranslation } from "react-i18next";
import { safeHref } from "~db/platform-links";
import type { DisplayMode, Partnership } from "~db/schema";
import { card, flush, muted, visuallyHidden } from "~/styles/ui.css";
import * as styles from "./community.css";

export interface PartnerView {
  id: number;
  name: string;
  description: string | null;
  url: string;
  logoUrl: string | null;
  displayMode: DisplayMode;
}

/**
 * A partner as its display_mode asks (logo, name or both). Links go through safeHref and open in a
 * new tab as sponsored; a partner whose URL is not http(s) is shown without a link.
 */
export function PartnerCard({ partner }: { partner: PartnerView }) {
  const { t } = useTranslation("partnerships");
  const href = safeHref(partner.url);
  const logo = safeHref(partner.logoUrl);
  const showLogo = logo && partner.displayMode !== "name";
  // A logo-only partner without a usable logo still needs a visible name.
  const showName = partner.displayMode !== "logo" || !showLogo;
  const content = (
    <>
      {showLogo ? <img src={logo} alt={partner.name} className={styles.partnerLogo} loading="lazy" /> : null}
      {showName ? <span>{partner.name}</span> : null}
    </>
  );
  return (
    <div className={`${card} ${styles.partnerCard}`} data-testid="partner" data-partner-id={partner.id}>
      {href ? (
        <a
          href={href}
          target="_blank"
          rel="sponsored noopener noreferrer"
          className={styles.partnerLink}
          aria-label={showName ? undefined : t("partner.opensNewTab", { name: partner.name })}
        >
          {content}
          {showName ? <span className={visuallyHidden}>{t("partner.newTab")}</span> : null}
        </a>
      ) : (
        <span className={styles.partnerLink}>{content}</span>
      )}
      {partner.description ? <p className={`${muted} ${flush}`}>{partner.description}</p> : null}
    </div>
  );
}

/** The description in the visitor's language, the French one when that translation is empty. */
function partnerDescription(
  row: {
    description: string | null;
    description_en: string | null;
    description_de: string | null;
    description_es: string | null;
  },
  language: string,
): string | null {
  const localized =
    language === "en"
      ? row.description_en
      : language === "de"
        ? row.description_de
        : language === "es"
          ? row.description_es
          : null;
  return localized || row.description || null;
}

export function toPartnerView(
  row: Pick<
    Partnership,
    "id" | "name" | "description" | "description_en" | "description_de" | "description_es" | "url" | "logo_url" | "display_mode"
  >,
  language: string,
): PartnerView {
  return {
    id: row.id,
    name: row.name,
    description: partnerDescription(row, language),
    url: row.url,
    logoUrl: row.logo_url,
    displayMode: row.display_mode,
  };
}
