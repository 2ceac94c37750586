// How docs/screenshots/ is made: full-page JPEGs of the public pages a visitor sees, in French, at
// 320, 390 and 1280 px wide, in the dark and the light theme, named `<page>-<width>-<theme><suffix>.jpg`.
// A page is shot whole up to 4,000 px tall, the privacy page's long text its first 2,500 px (the
// layout shows there), at JPEG quality 40: both sets, before and after issue 59, stay under 8 MB.
//
//   node scripts/screenshots.mjs <base URL> <output folder> [suffix]
//   node scripts/screenshots.mjs http://localhost:3296 docs/screenshots
//
// Run it against a built server with demo data on a fresh database (`SEED_DEMO=1`; for many runs
// in a day, raise `DRAW_SOFT_LIMIT` and `DRAW_DAILY_LIMIT`, each run draws six codes). The theme,
// the language and the consent answer are the site's cookies (`theme`, `language`, `consent`:
// declined, so the banner does not cover the page). Debian's Chromium, nothing downloaded.
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { chromium } from "@playwright/test";

const WIDTHS = [320, 390, 1280];
const THEMES = ["dark", "light"];
const QUALITY = 40;
const MAX_HEIGHT = 4000;

/** Each page: its file name's first part, its path, whether to draw there, and how much of it to shoot. */
const PAGES = [
  { name: "home", path: "/" },
  { name: "platforms", path: "/platforms" },
  { name: "platform-tesla", path: "/tesla" },
  { name: "draw-tesla", path: "/tesla/get-code", draw: true },
  { name: "submit", path: "/submit" },
  { name: "suggest", path: "/suggest-platform" },
  { name: "privacy-legal", path: "/privacy", maxHeight: 2500 },
];

const [base, outDir, suffix = ""] = process.argv.slice(2);
if (!base || !outDir) {
  console.error("usage: node scripts/screenshots.mjs <base URL> <output folder> [suffix]");
  process.exit(2);
}

/** The page at rest: no request in flight, the fonts loaded, no transition half-way. */
async function settle(page) {
  await page.waitForLoadState("networkidle");
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.waitForTimeout(300);
}

/** Click the draw button, skip the slot machine where the page offers it, wait for the code. */
async function draw(page) {
  await page.getByTestId("draw-button").click();
  const skip = page.getByTestId("draw-skip");
  const code = page.getByTestId("drawn-code");
  await Promise.race([skip.waitFor({ state: "visible", timeout: 15_000 }), code.waitFor({ state: "visible", timeout: 15_000 })]);
  if (await skip.isVisible()) await skip.click();
  await code.waitFor({ state: "visible", timeout: 15_000 });
  await page.getByTestId("slot-machine").waitFor({ state: "detached", timeout: 15_000 });
}

const { hostname } = new URL(base);
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu"],
});
await mkdir(outDir, { recursive: true });
try {
  for (const theme of THEMES) {
    for (const width of WIDTHS) {
      const context = await browser.newContext({
        viewport: { width, height: width < 800 ? 800 : 900 },
        colorScheme: theme,
        locale: "fr-FR",
        reducedMotion: "no-preference",
      });
      await context.addCookies(
        [
          ["theme", theme],
          ["language", "fr"],
          ["consent", "denied"],
        ].map(([name, value]) => ({ name, value, domain: hostname, path: "/" })),
      );
      const page = await context.newPage();
      for (const { name, path: pagePath, draw: drawIt, maxHeight = MAX_HEIGHT } of PAGES) {
        const response = await page.goto(new URL(pagePath, base).href);
        if (!response?.ok()) throw new Error(`${pagePath}: HTTP ${response?.status()}`);
        await settle(page);
        if (drawIt) {
          await draw(page);
          await settle(page);
        }
        const file = path.join(outDir, `${name}-${width}-${theme}${suffix}.jpg`);
        const height = await page.evaluate(() => document.documentElement.scrollHeight);
        const clip = { x: 0, y: 0, width, height: Math.min(height, maxHeight) };
        await page.screenshot({ path: file, fullPage: true, clip, type: "jpeg", quality: QUALITY });
        console.log(file);
      }
      await context.close();
    }
  }
} finally {
  await browser.close();
}
