import fs from "node:fs";
import path from "node:path";

/**
 * What a page's JavaScript is, one rule for `npm run bench -- --only pages` and
 * tests/integration/page-bundles.test.ts: the files (names under `assets/`) a page loads before it
 * hydrates. Its `modulepreload` links, the modules its inline script imports, and on a draw page the
 * half it shows (its `beforeHydration` call, app/features/codes/draw-parts.tsx, decision 263) with the chunks
 * that half imports: the result's where the server rendered a result, the form's elsewhere; on an
 * error page or a page with a toast, that part's chunk (the root module's `beforeHydration` call). The
 * route manifest inlined in the page also names modules of routes not shown (for route discovery):
 * those are fetched only when the visitor goes there, and are not counted.
 */
export function pageScripts(html: string, pathname: string, assetsDir: string): string[] {
  const files = new Set(scriptsIn(html));
  if (/^\/(random|[\w-]+\/get-code)(\?|$)/.test(pathname)) {
    const half = html.includes('data-testid="draw-result"') ? "draw-result-section" : "draw-ready-form";
    for (const file of withImports(half, assetsDir)) files.add(file);
  }
  // The parts the root loads before hydrating where the server's page shows them (app/root.tsx's
  // `beforeHydration`, decision 265): an error page's code, a toast's.
  if (html.includes("data-error-page")) for (const file of withImports("error-pages", assetsDir)) files.add(file);
  if (html.includes('data-testid="toast"')) for (const file of withImports("toast-body", assetsDir)) files.add(file);
  return [...files];
}

/** The files the page's HTML names: `modulepreload` links and the inline script's imports. */
export function scriptsIn(html: string): string[] {
  const files = new Set<string>();
  for (const m of html.matchAll(/rel="modulepreload"[^>]* href="\/assets\/([^"]+\.js)"/g)) files.add(m[1]!);
  for (const m of html.matchAll(/import(?: \* as \w+ from |\()"\/assets\/([^"]+\.js)"/g)) files.add(m[1]!);
  return [...files];
}

/** The chunk named `name` and every chunk it imports statically, as the browser loads them. */
export function withImports(name: string, assetsDir: string): string[] {
  const first = fs.readdirSync(assetsDir).filter((f) => new RegExp(`^${name}-[\\w-]+\\.js$`).test(f));
  if (first.length !== 1) throw new Error(`expected one chunk named ${name}, found ${first.length}`);
  const seen = new Set<string>();
  const stack = [...first];
  while (stack.length) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = fs.readFileSync(path.join(assetsDir, file), "utf8");
    for (const m of code.matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)) stack.push(m[1]!);
  }
  return [...seen];
}
