// A stock Remix 2.17.5 + Express app (the template's server, one list page and one detail page of
// about the size of Parrainly's), built on the fly in a temporary directory from the installed
// node_modules: the baseline of `npm run bench` (scripts/bench-pages.ts) and of
// `npm run lighthouse -- --stock`. Nothing is fetched and nothing of it is committed but this file.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/** @type {Record<string, string>} */
const STOCK_FILES = {
  // Remix works out the server runtime from the dependencies listed here.
  "package.json": JSON.stringify({
    type: "module",
    sideEffects: false,
    dependencies: {
      "@remix-run/express": "2.17.5",
      "@remix-run/node": "2.17.5",
      "@remix-run/react": "2.17.5",
      express: "*",
      isbot: "*",
      react: "*",
      "react-dom": "*",
    },
    devDependencies: { "@remix-run/dev": "2.17.5", vite: "*" },
  }),
  "vite.config.mjs": `import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";
export default defineConfig({
  logLevel: "warn",
  plugins: [remix({ future: { v3_fetcherPersist: true, v3_relativeSplatPath: true, v3_throwAbortReason: true, v3_singleFetch: true, v3_lazyRouteDiscovery: true } })],
});
`,
  "app/root.tsx": `import { Links, Meta, Outlet, Scripts, ScrollRestoration } from "@remix-run/react";
export function Layout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}
export default function App() {
  return <Outlet />;
}
`,
  "app/items.ts": `export const items = Array.from({ length: 44 }, (_, i) => ({
  id: i,
  slug: "platform-" + i,
  name: "Platform number " + i,
  description: "A referral programme with a bonus for both sides, item " + i + ", described here.",
}));
`,
  "app/routes/_index.tsx": `import { Link, useLoaderData } from "@remix-run/react";
import { items } from "../items";
export const meta = () => [{ title: "Stock Remix" }, { name: "description", content: "Baseline" }];
export async function loader() {
  return { items };
}
export default function Index() {
  const { items } = useLoaderData<typeof loader>();
  return (
    <main>
      <h1>Referral codes</h1>
      <ul>
        {items.map((item) => (
          <li key={item.id} className="item">
            <Link to={"/p/" + item.slug}>{item.name}</Link>
            <p>{item.description}</p>
          </li>
        ))}
      </ul>
    </main>
  );
}
`,
  "app/routes/p.$slug.tsx": `import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { items } from "../items";
export async function loader({ params }: LoaderFunctionArgs) {
  const item = items.find((i) => i.slug === params.slug);
  if (!item) throw new Response("Not found", { status: 404 });
  return { item, others: items.filter((i) => i !== item) };
}
export default function Platform() {
  const { item, others } = useLoaderData<typeof loader>();
  return (
    <main>
      <h1>{item.name}</h1>
      <p>{item.description}</p>
      <ul>
        {others.map((o) => (
          <li key={o.id}>
            <Link to={"/p/" + o.slug}>{o.name}</Link> <span>{o.description}</span>
          </li>
        ))}
      </ul>
    </main>
  );
}
`,
  "server.mjs": `import { createRequestHandler } from "@remix-run/express";
import express from "express";
const app = express();
app.disable("x-powered-by");
app.use("/assets", express.static("build/client/assets", { immutable: true, maxAge: "1y" }));
app.use(express.static("build/client", { maxAge: "1h" }));
app.all("*", createRequestHandler({ build: await import("./build/server/index.js") }));
const server = app.listen(Number(process.env.PORT ?? 3000), () => {
  console.log("listening on http://localhost:" + server.address().port);
});
process.on("SIGTERM", () => process.exit(0));
`,
};

/**
 * Writes the stock app into `dir` (node_modules linked from `root`) and runs its production build.
 * With `routeTable`, the app also gets one trivial module for each of Parrainly's route files that it
 * lacks (a `<div>` page, or a loader-only resource route where Parrainly's has no component): the same
 * route table, nothing rendered. The framework matches every request against the whole table, several
 * times, so this prices the table alone (issue 58's uncached figure; docs/performance.md).
 * @param {string} root Parrainly's checkout (its node_modules has Remix, React, Vite)
 * @param {string} dir an empty directory
 * @param {{ routeTable?: boolean }} [options]
 */
export function buildStock(root, dir, options = {}) {
  for (const [file, text] of Object.entries(STOCK_FILES)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  if (options.routeTable) {
    const ours = path.join(root, "app", "routes");
    for (const name of fs.readdirSync(ours)) {
      const file = path.join(dir, "app", "routes", name);
      if (fs.existsSync(file)) continue;
      const page = /export default/.test(fs.readFileSync(path.join(ours, name), "utf8"));
      fs.writeFileSync(
        file,
        page
          ? "export default function Page() {\n  return <div>page</div>;\n}\n"
          : 'export const loader = () => new Response("x");\n',
      );
    }
  }
  fs.symlinkSync(path.join(root, "node_modules"), path.join(dir, "node_modules"));
  const result = spawnSync(process.execPath, [path.join(root, "node_modules/@remix-run/dev/dist/cli.js"), "vite:build"], {
    cwd: dir,
    env: { ...process.env, NODE_ENV: "production" },
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`stock build failed:\n${result.stdout}\n${result.stderr}`);
}
