import { vitePlugin as remix } from "@remix-run/dev";
import { vanillaExtractPlugin } from "@vanilla-extract/vite-plugin";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

/**
 * In the browser, `react-i18next` is the app's small runtime (app/i18n/client-runtime.tsx): the
 * server renders with i18next and react-i18next, the browser hydrates with the same texts without
 * shipping them (decision 175).
 */
function clientTranslations(): Plugin {
  const runtime = fileURLToPath(new URL("./app/i18n/client-runtime.tsx", import.meta.url));
  return {
    name: "parrainly-client-translations",
    enforce: "pre",
    resolveId(source, _importer, options) {
      if (source === "react-i18next" && !options?.ssr) return runtime;
      return null;
    },
  };
}

export default defineConfig({
  server: { port: 3000 },
  build: {
    // Small chunks load faster on cheap phones; the game island will be its own lazy chunk.
    target: "es2020",
    assetsInlineLimit: 0,
    rollupOptions: {
      // Resource routes (healthz, robots.txt, preferences…) have no browser code: their empty client
      // chunks are expected, and a line per route reads like something went wrong.
      onwarn(warning, warn) {
        if (warning.code === "EMPTY_BUNDLE") return;
        warn(warning);
      },
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
    ],
  },
  plugins: [
    !process.env.VITEST && clientTranslations(),
    vanillaExtractPlugin(),
    // The Remix plugin must stay out of Vitest (stack pitfall 5).
    !process.env.VITEST &&
      remix({
        future: {
          v3_fetcherPersist: true,
          v3_relativeSplatPath: true,
          v3_throwAbortReason: true,
          v3_singleFetch: true,
          v3_lazyRouteDiscovery: true,
          v3_routeConfig: true,
        },
      }),
    tsconfigPaths(),
  ],
});
