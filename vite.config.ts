import { vitePlugin as remix } from "@remix-run/dev";
import { vanillaExtractPlugin } from "@vanilla-extract/vite-plugin";
import { createHash } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig, type BuildOptions, type Plugin } from "vite";
import { envOnlyMacros } from "vite-env-only";
import tsconfigPaths from "vite-tsconfig-paths";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

/**
 * The browser reads translations from one URL pattern, `/assets/locales-<hash>.<language>.<namespace>.js`,
 * where `<hash>` covers every locale file (a changed text changes every URL; they are cached for a
 * year like the other assets). Each is a module whose default export is the namespace's tree
 * (`JSON.parse` of one string: V8 reads that faster than an object literal). In the browser build
 * `app/i18n/locale-files.ts` becomes an `import()` of that pattern: the table of 68 `import()`
 * loaders it holds in development (about 1 KB gzipped, in every page's layout chunk) is gone
 * (decision 252). A module rather than a `fetch` of JSON: the same work as before for the browser,
 * which measured less main-thread time than `fetch` and `Response.json()`. The namespaces a page
 * needs at once come in one module, `…<language>.<a>+<b>+<c>.js` (names sorted), which the server
 * joins from these files (server/locale-sets.ts, decision 272): one request instead of four.
 */
function localeFiles(): Plugin {
  const dir = fileURLToPath(new URL("./app/locales/", import.meta.url));
  const module = fileURLToPath(new URL("./app/i18n/locale-files.ts", import.meta.url));
  let ssr = false;
  let base = "/";
  const files = () =>
    fs
      .readdirSync(dir)
      .sort()
      .flatMap((language) =>
        fs
          .readdirSync(path.join(dir, language))
          .filter((f) => f.endsWith(".json"))
          .sort()
          .map((f) => ({
            language,
            namespace: f.slice(0, -".json".length),
            text: fs.readFileSync(path.join(dir, language, f), "utf8"),
          })),
      );
  const hashOf = (list: ReturnType<typeof files>) => {
    const hash = createHash("sha256");
    for (const f of list) hash.update(`${f.language}/${f.namespace}\0${f.text}\0`);
    return hash.digest("base64url").slice(0, 10);
  };
  return {
    name: "parrainly-locale-files",
    apply: "build",
    configResolved(config) {
      ssr = Boolean(config.build.ssr);
      base = config.base;
    },
    load(id) {
      if (ssr || id !== module) return null;
      const prefix = `${base}assets/locales-${hashOf(files())}.`;
      // Several namespaces in one module (server/locale-sets.ts joins the files), one alone as it is.
      return (
        `export function readLocales(language, namespaces) {\n` +
        `  const names = [...new Set(namespaces)].sort();\n` +
        `  const url = ${JSON.stringify(prefix)} + language + "." + names.join("+") + ".js";\n` +
        `  return import(/* @vite-ignore */ url).then((mod) => (names.length === 1 ? { [names[0]]: mod.default } : mod.default));\n` +
        `}\n`
      );
    },
    generateBundle() {
      if (ssr) return;
      const list = files();
      const hash = hashOf(list);
      for (const f of list)
        this.emitFile({
          type: "asset",
          fileName: `assets/locales-${hash}.${f.language}.${f.namespace}.js`,
          source: `export default JSON.parse(${JSON.stringify(JSON.stringify(JSON.parse(f.text)))});\n`,
        });
    },
  };
}

/**
 * The site's whole stylesheet (5 KB gzipped) is inlined in each page's head rather than linked: a
 * linked stylesheet blocks the first paint for a round trip, four of them did on a phone (decision
 * 178). With `cssCodeSplit: false` each build emits one `style-*.css`; the browser build's copy is
 * written to `build/site.css` for the server to read at start, and neither is published.
 */
function siteStylesheet(): Plugin {
  let ssr = false;
  let css: string | undefined;
  return {
    name: "parrainly-site-stylesheet",
    enforce: "post",
    apply: "build",
    configResolved(config) {
      ssr = Boolean(config.build.ssr);
    },
    generateBundle(_options, bundle) {
      for (const [name, file] of Object.entries(bundle)) {
        if (file.type !== "asset" || !name.endsWith(".css")) continue;
        if (!ssr) css = String(file.source);
        delete bundle[name];
      }
    },
    writeBundle(options) {
      if (ssr || css === undefined || !options.dir) return;
      fs.writeFileSync(path.join(options.dir, "..", "site.css"), css);
    },
  };
}

/**
 * Terser for the browser's code: 3-4 KB less gzipped JavaScript on every page than esbuild's
 * minifier (decision 178). Each distinct licence comment is kept once per build, not once per
 * module (Remix's packages repeat their banner in every file).
 */
function browserMinify(): Pick<BuildOptions, "minify" | "terserOptions"> {
  const seen = new Set<string>();
  return {
    minify: "terser",
    terserOptions: {
      ecma: 2020,
      module: true,
      compress: { passes: 2 },
      format: {
        comments: (_node, comment) => {
          if (!/@license|@preserve|^!/.test(comment.value)) return false;
          if (seen.has(comment.value)) return false;
          seen.add(comment.value);
          return true;
        },
      },
    },
  };
}

/**
 * The client runtime in three parts (decision 250): `framework` (React, react-dom, Remix and React
 * Router: the same bytes as a stock Remix app's, unchanged from one release of ours to the next),
 * `layout` (the root route and everything it imports: header, footer, toasts, consent, the style
 * modules, which every page shows), and each route's own chunks. The layout was a dozen small files,
 * each costing a cheap phone a request and its own compile and evaluation tasks; every page loaded
 * all of them anyway. What the browser entry imports itself (the translation runtime) is in the
 * layout chunk too; the entry module alone is a chunk of its own, and nothing imports it.
 */
/**
 * Small modules most visitor pages use but the layout does not (link checks, the platform colours,
 * the platform logo): in the layout chunk, not each a chunk of its own that a page imports for
 * a hundred bytes of glue (decision 265).
 */
const SHARED_BY_PAGES = [
  "/db/platform-links.ts",
  "/app/styles/theme.css.ts",
  "/node_modules/@vanilla-extract/dynamic/",
  "/app/features/codes/codes.css.ts",
  "/app/features/trust/trust.css.ts",
  "/app/features/codes/platform-logo.tsx",
];
const FRAMEWORK = /\/node_modules\/(react|react-dom|scheduler|@remix-run\/[\w-]+|react-router|react-router-dom|turbo-stream)\//;

function clientChunks(): NonNullable<NonNullable<BuildOptions["rollupOptions"]>["output"]> {
  const app = fileURLToPath(new URL("./app/", import.meta.url));
  const root = path.join(app, "root.tsx");
  const entry = path.join(app, "entry.client.tsx");
  type Info = { importedIds: readonly string[] } | null;
  const reach = (start: string, info: (id: string) => Info): Set<string> => {
    const seen = new Set<string>();
    const stack = [start];
    while (stack.length) {
      const id = stack.pop()!;
      if (seen.has(id)) continue;
      seen.add(id);
      for (const next of info(id)?.importedIds ?? []) if (next.startsWith(app)) stack.push(next);
    }
    return seen;
  };
  let layout: Set<string> | undefined;
  return {
    manualChunks(id, { getModuleInfo }) {
      if (FRAMEWORK.test(id)) return "framework";
      if (SHARED_BY_PAGES.some((shared) => id.includes(shared))) return "layout";
      if (!id.startsWith(app)) return undefined;
      if (!layout) {
        // The entry's own imports (the i18n runtime) too: every page loads them, and left to
        // Rollup they once landed in an on-demand chunk that every page then loaded (decision 265).
        layout = new Set([...reach(root, getModuleInfo), ...reach(entry, getModuleInfo)]);
        layout.delete(entry);
      }
      if (!layout.has(id)) return undefined;
      // A module the layout imports on demand (the consent banner and the analytics tags) keeps a
      // chunk of its own, or it would be in every page's layout chunk. Only those: a manual chunk
      // takes in the modules it imports that no other rule places, so naming the game's end dialog
      // (loaded on demand by a page, not the layout) once put the forms module, which it shares
      // with every page, inside the dialog's chunk, and react-aria with it on every page.
      if (getModuleInfo(id)?.dynamicImporters.length) return path.basename(id).replace(/\.\w+$/, "");
      return "layout";
    },
  };
}

/**
 * A package and every package it depends on, read from node_modules: Express is about 60 CommonJS
 * files in 30 packages, which Node would resolve, read and compile one by one at each start (about
 * 80 ms of CPU before the first answer, decision 241). Bundled into the server build instead.
 */
function withDependencies(name: string, from = fileURLToPath(import.meta.url), seen = new Set<string>()): string[] {
  const manifestFile = createRequire(from).resolve(`${name}/package.json`);
  if (seen.has(name)) return [...seen];
  seen.add(name);
  const manifest = JSON.parse(fs.readFileSync(manifestFile, "utf8")) as { dependencies?: Record<string, string> };
  for (const dependency of Object.keys(manifest.dependencies ?? {})) withDependencies(dependency, manifestFile, seen);
  return [...seen];
}

export default defineConfig(({ command, isSsrBuild }) => ({
  server: { port: 3000 },
  build: {
    // Browsers from 2020 on; the server build for the Node it runs on: lowered to es2020, Kysely's
    // private class fields became WeakMap lookups on every query-builder call (and garbage for the
    // collector), 2-3 % of an uncached page's CPU (decision 240).
    target: isSsrBuild ? "node20" : "es2020",
    assetsInlineLimit: 0,
    // One stylesheet for the whole site, inlined in every page (siteStylesheet below, decision 178).
    cssCodeSplit: false,
    // No preloading of a dynamic import's own imports: the game, its end dialog and the consent
    // parts import nothing the page has not loaded already (decision 265).
    modulePreload: false,
    ...(isSsrBuild ? {} : browserMinify()),
    rollupOptions: {
      // Resource routes (healthz, robots.txt, preferences…) have no browser code: their empty client
      // chunks are expected, and a line per route reads like something went wrong.
      onwarn(warning, warn) {
        if (warning.code === "EMPTY_BUNDLE") return;
        warn(warning);
      },
      ...(isSsrBuild ? {} : { output: clientChunks() }),
    },
  },
  ssr: {
    // Bundled into the server build: loading these from node_modules file by file (kysely alone is
    // hundreds of small modules) was a large part of the server's start-up.
    noExternal: [
      "kysely",
      "i18next",
      "react-i18next",
      "remix-i18next",
      "zod",
      "@conform-to/react",
      "@conform-to/zod",
      "isbot",
      "remix-auth",
      "remix-auth-form",
      // Not in development: Vite's development server runs CommonJS packages only from node_modules.
      ...(command === "build" ? withDependencies("express") : []),
    ],
  },
  plugins: [
    // clientOnly$ (vite-env-only): the assistant's markdown renderer, dropped with its import from the server build.
    envOnlyMacros(),
    !process.env.VITEST && siteStylesheet(),
    !process.env.VITEST && localeFiles(),
    vanillaExtractPlugin(),
    // The Remix plugin must stay out of Vitest (stack pitfall 5).
    !process.env.VITEST &&
      remix({
        future: {
          v3_fetcherPersist: true,
          v3_relativeSplatPath: true,
          v3_throwAbortReason: true,
          v3_singleFetch: true,
          // Off: every route in one cached manifest file, no second render after hydration (decision 402).
          v3_lazyRouteDiscovery: false,
          v3_routeConfig: true,
        },
      }),
    tsconfigPaths(),
  ],
}));
