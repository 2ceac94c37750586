import * as layout from "~/styles/layout.css";
import { contents } from "~/styles/ui.css";
import { FooterContent } from "./footer-content";
import { ServerHtml } from "./server-html";

/** The same on every page: kept as the server rendered it at hydration (ServerHtml, decision 250). */
export function SiteFooter() {
  return (
    <footer className={layout.footer}>
      <ServerHtml id="site-footer" className={contents}>
        <FooterContent />
      </ServerHtml>
    </footer>
  );
}
