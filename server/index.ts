import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import express from "express";
import { contentSecurityPolicy } from "./csp";
import { drawFastPath } from "./draw-fast-path";
import { refuseForbiddenWrites } from "./guards";
import { remixHandler } from "./remix";
import { loadRemixBuild } from "./remix-build";
import { closeGracefully, trackEventStreams } from "./shutdown";
import { clientFiles } from "./static";

const dev = process.argv.includes("--dev");
const log = (line: string) => console.log(`${new Date().toISOString()} ${line}`);

// Everything of the app (configuration, database, jobs, guards, draw) comes through the Remix build.
const remixBuild = await loadRemixBuild(dev);
const hooks = await remixBuild.hooks();
const env = hooks.config();
await hooks.prepare(log);

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

const eventStreams = trackEventStreams();
app.use(eventStreams.middleware);

app.use(refuseForbiddenWrites(remixBuild.hooks));

if (remixBuild.devMiddleware) app.use(remixBuild.devMiddleware);
if (remixBuild.clientDir) app.use(clientFiles(remixBuild.clientDir));

// Uploaded platform logos (admin), cached for an hour.
const uploadsDir = path.resolve(env.UPLOADS_DIR);
fs.mkdirSync(uploadsDir, { recursive: true });
app.use("/uploads", express.static(uploadsDir, { maxAge: "1h", index: false, dotfiles: "deny", fallthrough: false }));

const remix = remixHandler({
  build: remixBuild.build,
  mode: dev ? "development" : "production",
  getLoadContext: (req, res) => ({ clientIp: clientIpOf(req), cspNonce: res.locals.cspNonce as string }),
});
// The draw form's POST: answered here when it draws, else handed to Remix (decision 010).
app.use(drawFastPath(remix, remixBuild.hooks));
app.all("*", (req, res, next) => void remix(req, res, next));

const server = app.listen(env.PORT, () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : env.PORT;
  // What is served, not NODE_ENV: `npm start` serves the production build even with NODE_ENV unset.
  log(`Parrainly listening on http://localhost:${port} (${dev ? "development server, Vite" : "production build"})`);
  log("Create an admin with: npm run admin:create -- --email you@example.com --password 'a long passphrase'");
});
server.keepAliveTimeout = 65_000;

const stopJobs = hooks.startJobs(log);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log(`${signal} received: closing`);
  stopJobs();
  await closeGracefully(server, eventStreams.endAll);
  await hooks.close();
  log("database closed, bye");
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
