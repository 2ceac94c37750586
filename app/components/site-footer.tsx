import { LinkList } from "./link-list";
import { ServerHtml } from "./server-html";
import { useTranslation } from "react-i18next";
import * as layout from "~/styles/layout.css";
import { flush, muted } from "~/styles/ui.css";
import { copyrightYears } from "~/utils/dates";

/** The same on every page: kept as the server rendered it, never hydrated (ServerHtml). */
export function SiteFooter() {
  const { t } = useTranslation();
  const { t: tt } = useTranslation("trust");
  return (
    <footer className={layout.footer}>
      <ServerHtml id="site-footer" className={layout.footerInner}>
        <p className={`${muted} ${flush}`}>{t("footer.copyright", { years: copyrightYears(new Date()) })}</p>
        <nav aria-label={t("footer.legal")}>
          <LinkList
            className={layout.footerLinks}
            links={[
              { to: "/privacy", label: t("footer.privacy") },
              { to: "/terms", label: t("footer.terms") },
              { to: "/fairness", label: tt("fairness.footerLink") },
            ]}
          />
        </nav>
      </ServerHtml>
    </footer>
  );
}
