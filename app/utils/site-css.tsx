import { createContext, useContext } from "react";

const SiteCssContext = createContext<string>("");
/** Given by entry.server: the site's stylesheet, read once at start (build/site.css, decision 178). */
export const SiteCssProvider = SiteCssContext.Provider;

const ID = "site-css";
let browserCss: string | undefined;

/**
 * The whole stylesheet inlined in the head: no request holds back the first paint. The browser keeps
 * the server's copy: it reads the element once instead of shipping the text again in a script. In
 * development Vite serves the styles itself and the text is empty.
 */
export function SiteStylesheet() {
  const fromServer = useContext(SiteCssContext);
  const css = typeof document === "undefined" ? fromServer : (browserCss ??= document.getElementById(ID)?.textContent ?? "");
  if (!css) return null;
  return <style id={ID} dangerouslySetInnerHTML={{ __html: css }} />;
}
