/**
 * What a page's JavaScript is, one rule for `npm run bench -- --only pages` and
 * tests/integration/page-bundles.test.ts: the files (names under `assets/`) a page loads before it
 * hydrates: its `modulepreload` links and the modules its inline script imports, the route manifest's
 * file included (decision 402). The manifest names the modules of routes not shown: those are fetched
 * only when the visitor goes there, and are not counted.
 */
export function pageScripts(html: string): string[] {
  const files = new Set<string>();
  for (const m of html.matchAll(/rel="modulepreload"[^>]* href="\/assets\/([^"]+\.js)"/g)) files.add(m[1]!);
  for (const m of html.matchAll(/import(?: \* as \w+ from |\()"\/assets\/([^"]+\.js)"/g)) files.add(m[1]!);
  return [...files];
}
