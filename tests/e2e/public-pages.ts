/**
 * The public pages the sweep (sweep.spec.ts) reads in fr and de, with and without JS, with the
 * layout rules and axe on the French load; the layout check (layout.spec.ts) reads the rest of the
 * sitemap's pages. One platform's two pages stand for every platform's.
 */
export const SWEPT_PAGES = [
  "/",
  "/platforms",
  "/platforms?q=zzzz",
  "/submit",
  "/suggest-platform",
  "/partnerships",
  "/privacy",
  "/terms",
  "/random",
  "/tesla",
  "/tesla/get-code",
  "/404",
  "/admin/login",
];

/** Pages whose screenshots at 320 and 1280 px go to the test report (the layout check's and the sweep's). */
export const KEY_PAGES = new Set(["/", "/platforms", "/tesla", "/tesla/get-code", "/submit", "draw result"]);
