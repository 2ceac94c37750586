import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { ServerBuild } from "@remix-run/node";
import express from "express";
import { closeDb } from "~db/client.server";
import { startCleanupJob } from "~/features/admin/site/cleanup-job.server";
import { getEnv } from "~/utils/env.server";
import { contentSecurityPolicy } from "./csp";
import { drawFastPath } from "./draw-fast-path";
import { refuseAnonymousAdminWrites, refuseCrossSiteWrites } from "./guards";
import { prepareDatabase } from "./startup";
import { remixHandler } from "./remix";
import { precompressed } from "./static";

const dev = process.argv.includes("--dev");
const env = getEnv();
const log = (line: string) => console.log(`${new Date().toISOString()} ${line}`);

await prepareDatabase(log);

const app = express();
app.disable("x-powered-by");
// Proxy headers are honoured only when asked (Fly sets Fly-Client-IP).
app.set("trust proxy", env.TRUST_PROXY);

function clientIpOf(req: express.Request): string {
  if (env.TRUST_PROXY) {
    const fly = req.get("fly-client-ip");
    if (fly) return fly.trim();
    const forwarded = req.get("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded) return forwarded;
  }
  return req.socket.remoteAddress ?? "unknown";
}

const logRequests = env.LOG_REQUESTS !== "0";
app.use((req, res, next) => {
  const start = process.hrtime.bigint();
  res.locals.cspNonce = crypto.randomBytes(16).toString("base64");
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
  res.setHeader("X-Frame-Options", "DENY");
  res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=(), interest-cohort=()");
  if (!dev) res.setHeader("Content-Security-Policy", contentSecurityPolicy(res.locals.cspNonce as string));
  if (logRequests) {
    res.on("finish", () => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      log(`${req.method} ${req.originalUrl} ${res.statusCode} ${ms.toFixed(1)}ms`);
    });
  }
  next();
});

app.use(refuseCrossSiteWrites(new URL(env.SITE_URL).host));
app.use(refuseAnonymousAdminWrites());

let build: ServerBuild | (() => Promise<ServerBuild>);
if (dev) {
  const vite = await import("vite").then((v) => v.createServer({ server: { middlewareMode: true } }));
  app.use(vite.middlewares);
  build = () => vite.ssrLoadModule("virtual:remix/server-build") as Promise<ServerBuild>;
} else {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const clientDir = path.join(here, "client");
  // Hashed assets never change: cache for a year; precompressed copies made at build time.
  app.use("/assets", precompressed(path.join(clientDir, "assets")));
  app.use("/assets", express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y", index: false }));
  // Other public files (favicon, og image) all have an extension: skip the disk look-up for pages.
  const publicFiles = express.static(clientDir, { maxAge: "1h", index: false });
  app.use((req, res, next) => (/\.\w+$/.test(req.path) && !req.path.endsWith(".data") ? publicFiles(req, res, next) : next()));
  build = (await import(/* @vite-ignore */ pathToFileURL(path.join(here, "server", "index.js")).href)) as ServerBuild;
}

// Uploaded platform logos (admin), cached for an hour.
const uploadsDir = path.resolve(env.UPLOADS_DIR);
fs.mkdirSync(uploadsDir, { recursive: true });
app.use("/uploads", express.static(uploadsDir, { maxAge: "1h", index: false, dotfiles: "deny", fallthrough: false }));

const remix = remixHandler({
  build,
  mode: dev ? "development" : "production",
  getLoadContext: (req, res) => ({ clientIp: clientIpOf(req), cspNonce: res.locals.cspNonce as string }),
});
// The draw form's POST: answered here when it draws, else handed to Remix (decision 010).
app.use(drawFastPath(remix));
app.all("*", (req, res, next) => void remix(req, res, next));

const server = app.listen(env.PORT, () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : env.PORT;
  // What is served, not NODE_ENV: `npm start` serves the production build even with NODE_ENV unset.
  log(`Parrainly listening on http://localhost:${port} (${dev ? "development server, Vite" : "production build"})`);
  log("Create an admin with: npm run admin:create -- --email you@example.com --password 'a long passphrase'");
});
server.keepAliveTimeout = 65_000;

const backgroundJobs: Array<() => void> = [];
export function onShutdown(stop: () => void) {
  backgroundJobs.push(stop);
}
// Expired temporary codes go when enable_auto_cleanup is 'true' (checked at each run).
onShutdown(startCleanupJob(log));

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log(`${signal} received: closing`);
  for (const stop of backgroundJobs) stop();
  server.close();
  server.closeIdleConnections?.();
  // Long-lived requests (event streams) get a moment, then are cut.
  const force = setTimeout(() => server.closeAllConnections?.(), 3_000);
  force.unref();
  await new Promise<void>((resolve) => server.once("close", () => resolve()));
  await closeDb();
  log("database closed, bye");
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
