import { useTranslation } from "react-i18next";
import { muted } from "~/styles/ui.css";
import * as styles from "./offer.css";

/** /platforms: where engines (and curious people) find the same figures as data. */
export function OpenDataLinks() {
  const { t, i18n } = useTranslation("offer");
  const lng = i18n.language === "fr" ? "" : `?lng=${i18n.language}`;
  return (
    <p className={`${muted} ${styles.openData}`} data-testid="open-data">
      {t("openData.text")} <a href={`/api/platforms.json${lng}`}>{t("openData.json")}</a> ·{" "}
      <a href="/llms.txt">{t("openData.llms")}</a>
    </p>
  );
}
