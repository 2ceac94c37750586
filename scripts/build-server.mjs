// Bundles server/index.ts (with Express) into build/server.mjs and precompresses the hashed client assets.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { build } from "esbuild";

// Express and its dependencies (about 60 CommonJS files) are bundled in: Node no longer resolves,
// reads and scans each of them at start-up, about 80 ms of CPU before the first answer (decision
// 241). Every other package stays in node_modules: the Remix packages, React and the database
// drivers must be the very modules the Remix build uses, and the patches apply there.
const pkg = JSON.parse(fs.readFileSync("package.json", "utf8"));
const BUNDLED = new Set(["express"]);
const external = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }).filter((name) => !BUNDLED.has(name));

await build({
  entryPoints: ["server/index.ts"],
  outfile: "build/server.mjs",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  external: [...external, ...external.map((name) => `${name}/*`)],
  // The bundled CommonJS code requires Node's own modules: give it a `require`.
  banner: {
    js: 'import { createRequire as createRequireForBundle } from "node:module";\nconst require = createRequireForBundle(import.meta.url);',
  },
  tsconfig: "tsconfig.json",
  logLevel: "warning",
});

const assets = "build/client/assets";
let count = 0;
for (const name of fs.readdirSync(assets)) {
  if (!/\.(js|css|svg|json)$/.test(name)) continue;
  const file = path.join(assets, name);
  const body = fs.readFileSync(file);
  if (body.length < 1024) continue;
  fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }));
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(body, { level: 9 }));
  count++;
}
console.log(`server bundled to build/server.mjs; ${count} asset(s) precompressed`);
