// Bundles server/index.ts (the runner) into build/server.mjs and precompresses the hashed client assets.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { build } from "esbuild";

// The runner (server/index.ts) alone: the Express server is a module of the Remix build (decision
// 001), which the runner loads; every package stays outside, in node_modules.
const pkg = JSON.parse(fs.readFileSync("package.json", "utf8"));
const external = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies });

await build({
  entryPoints: ["server/index.ts"],
  outfile: "build/server.mjs",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  external: [...external, ...external.map((name) => `${name}/*`)],
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
