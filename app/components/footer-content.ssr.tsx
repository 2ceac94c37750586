import { FooterContent } from "./footer-content";

/** The footer for the server, which renders it directly; empty in the browser build (site-footer.tsx). */
export default { FooterContent };
