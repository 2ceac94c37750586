import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import * as layout from "~/styles/layout.css";
import { flush, muted } from "~/styles/ui.css";
import { copyrightYears } from "~/utils/dates";

export function SiteFooter() {
  const { t } = useTranslation();
  const { t: tt } = useTranslation("trust");
  return (
    <footer className={layout.footer}>
      <div className={layout.footerInner}>
        <p className={`${muted} ${flush}`}>{t("footer.copyright", { years: copyrightYears(new Date()) })}</p>
        <nav aria-label={t("footer.legal")}>
          <ul className={layout.footerLinks}>
            <li>
              <Link to="/privacy">{t("footer.privacy")}</Link>
            </li>
            <li>
              <Link to="/terms">{t("footer.terms")}</Link>
            </li>
            <li>
              <Link to="/fairness">{tt("fairness.footerLink")}</Link>
            </li>
          </ul>
        </nav>
      </div>
    </footer>
  );
}
