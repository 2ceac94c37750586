import * as layout from "~/styles/layout.css";
import { FooterContent } from "./footer-content";

/** The same on every page. Its id is the first paint's default target (first-paint-hold.tsx). */
export function SiteFooter() {
  return (
    <footer id="site-footer" className={layout.footer}>
      <FooterContent />
    </footer>
  );
}
