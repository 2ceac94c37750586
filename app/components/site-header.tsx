import { Link, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useRootData } from "~/utils/root-data";
import * as layout from "~/styles/layout.css";
import { GiftIcon, MenuIcon } from "./icons";
import { LanguageForm } from "./language-form";
import { ThemeForm, useThemeToggleEnabled } from "./theme-form";

const NAV = [
  { to: "/platforms", key: "nav.platforms" },
  { to: "/submit", key: "nav.submit" },
  { to: "/suggest-platform", key: "nav.suggest" },
  { to: "/partnerships", key: "nav.seeAll" },
] as const;

export function SiteHeader() {
  const { t } = useTranslation();
  const root = useRootData();
  const location = useLocation();
  const showToggle = useThemeToggleEnabled(root?.themeToggleEnabled ?? false);
  // The admin has its own tabs: the brand (back to the site) and the tools, not the public menus.
  const inAdmin = /^\/admin(\/|$)/.test(location.pathname);

  return (
    <header className={layout.header}>
      <div className={layout.headerInner}>
        {/* The drawer is native (details); a navigation renders it anew, closed (its key). */}
        {inAdmin ? null : (
          <details className={layout.drawer} key={location.key}>
            <summary className={layout.drawerSummary} aria-label={t("nav.menu")}>
              <MenuIcon />
            </summary>
            <div className={layout.drawerBackdrop} aria-hidden="true" />
            <nav className={layout.drawerPanel} aria-label={t("nav.menu")}>
              <Link to="/" className={layout.navLink}>
                {t("nav.home")}
              </Link>
              {NAV.map((item) => (
                <Link key={item.to} to={item.to} className={layout.navLink}>
                  {t(item.key)}
                </Link>
              ))}
              <Link to="/privacy" className={layout.navLink}>
                {t("footer.privacy")}
              </Link>
              <Link to="/terms" className={layout.navLink}>
                {t("footer.terms")}
              </Link>
            </nav>
          </details>
        )}
        <Link to="/" className={layout.brand}>
          <GiftIcon /> Parrainly
        </Link>
        {inAdmin ? null : (
          <nav id="main-nav" className={layout.nav} aria-label={t("nav.main")}>
            {NAV.map((item) => (
              <Link key={item.to} to={item.to} className={layout.navLink}>
                {t(item.key)}
              </Link>
            ))}
          </nav>
        )}
        <div className={layout.headerTools}>
          <LanguageForm />
          {showToggle ? <ThemeForm /> : null}
        </div>
      </div>
    </header>
  );
}
