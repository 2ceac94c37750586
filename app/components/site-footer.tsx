import { useTranslation } from "react-i18next";
import * as layout from "~/styles/layout.css";
import { flush, muted } from "~/styles/ui.css";
import { copyrightYears } from "~/utils/dates";
import { LinkList } from "./link-list";

/** The same on every page: the years and the legal links. Its id is the first paint's default target (first-paint-hold.tsx). */
export function SiteFooter() {
  const { t } = useTranslation();
  const { t: tt } = useTranslation("trust");
  return (
    <footer id="site-footer" className={layout.footer}>
      <div className={layout.footerInner}>
        <p className={`${muted} ${flush}`}>{t("footer.copyright", { years: copyrightYears(new Date()) })}</p>
        <nav aria-label={t("footer.legal")}>
          <LinkList
            className={layout.footerLinks}
            links={[
              { to: "/privacy", label: t("footer.privacy") },
              { to: "/terms", label: t("footer.terms") },
              // The publisher, a contact and the host (a French site must name them), from the settings.
              { to: "/privacy#legal-notice", label: t("footer.legalNotice") },
              { to: "/fairness", label: tt("fairness.footerLink") },
            ]}
          />
        </nav>
      </div>
    </footer>
  );
}
