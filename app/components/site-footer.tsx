import * as layout from "~/styles/layout.css";
import { serverOnly$ } from "vite-env-only/macros";
import { FooterContent } from "./footer-content";
import { keptPart } from "./kept-part";

/**
 * The same on every page: kept as the server rendered it, never hydrated, and its code loaded only
 * when the browser renders it itself, after a client navigation or a change of language (kept-part.tsx).
 */
const KeptFooter = keptPart(
  serverOnly$(() => FooterContent),
  () => import("./footer-content").then((m) => m.FooterContent),
  () => "site-footer",
);

export function SiteFooter() {
  return (
    <footer className={layout.footer}>
      <KeptFooter />
    </footer>
  );
}
