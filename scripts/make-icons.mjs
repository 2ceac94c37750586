/**
 * The site's PNG icons, drawn from public/favicon.svg by Debian's Chromium (decision 274):
 *
 *   node scripts/make-icons.mjs      # after changing public/favicon.svg; commit the PNGs
 *
 * favicon-48.png (the page's icon), apple-touch-icon.png (180 px, square: iOS rounds it itself),
 * icon-192.png and icon-512.png (the web manifest's). Pages name PNGs, not the SVG: the browser
 * decodes a page's icons in the page's renderer, and an SVG is a document to build each time.
 */
import fs from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";

const PUBLIC = path.join(import.meta.dirname, "..", "public");
const ICONS = [
  { file: "favicon-48.png", size: 48, square: false },
  { file: "apple-touch-icon.png", size: 180, square: true },
  { file: "icon-192.png", size: 192, square: false },
  { file: "icon-512.png", size: 512, square: false },
];

const svg = fs.readFileSync(path.join(PUBLIC, "favicon.svg"), "utf8");
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});
try {
  for (const { file, size, square } of ICONS) {
    const page = await browser.newPage({ viewport: { width: size, height: size }, deviceScaleFactor: 1 });
    const drawn = (square ? svg.replace(/ rx="\d+"/, "") : svg).replace("<svg ", `<svg width="${size}" height="${size}" `);
    await page.setContent(`<!DOCTYPE html><html><body style="margin:0;background:transparent">${drawn}</body></html>`);
    await page.screenshot({
      path: path.join(PUBLIC, file),
      omitBackground: true,
      clip: { x: 0, y: 0, width: size, height: size },
    });
    await page.close();
    console.log(`public/${file}: ${size}x${size}, ${fs.statSync(path.join(PUBLIC, file)).size} bytes`);
  }
} finally {
  await browser.close();
}
