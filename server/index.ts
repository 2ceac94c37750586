import fs from "node:fs";
import path from "node:path";
import express from "express";
import { admissionControl, admissionLimitsFromEnv, LEAVE_ADMISSION } from "./admission";
import { clientIpOf, TRUSTED_PROXIES } from "./client-ip";
import { finalErrorHandler } from "./error-page";
import { refuseForbiddenWrites } from "./guards";
import { healthEndpoint } from "./health";
import { createHardenedServer } from "./http-server";
import { refuseBackslashPaths } from "./path-guard";
import { createRequestHandler } from "@remix-run/express";
import { pageCache } from "./page-cache";
import { RecentDraws } from "./recent-draws";
import { reactBuildLoaded } from "./production-mode";
import { loadRemixBuild } from "./remix-build";
import { refusalWordsOf } from "./refusal-texts";
import { ignoreFailuresAfterBodyRefusal, limitRequestBodies } from "./request-body";
import { requestLog } from "./request-log";
import { fixedSecurityHeaders, securityHeaders } from "./security-headers";
import { eventStreamsMaxFromEnv, trackEventStreams } from "./event-streams";
import { closeGracefullyOnSignals } from "./shutdown";
import { startOrExplain } from "./start-up";
import { clientFiles } from "./static";
import { uploadsFromDatabase } from "./uploads";

const dev = process.argv.includes("--dev");
const log = (line: string) => console.log(`${new Date().toISOString()} ${line}`);

// Everything of the app (configuration, database, jobs, guards, draw) comes through the Remix build.
const remixBuild = await loadRemixBuild(dev);
const hooks = await remixBuild.hooks();
// A configuration or a database that stops the start says why in one line (server/start-up.ts).
const env = await startOrExplain(async () => {
  const config = hooks.config();
  await hooks.prepare(log);
  return config;
});

// The refusals answered before Remix, in the app's words and language (decision 262).
const words = refusalWordsOf(hooks);

const app = express();
app.disable("x-powered-by");
// Express's own error pages never show a stack in the production build, whatever NODE_ENV says.
if (!dev) app.set("env", "production");
// Proxy headers are honoured only when asked (Fly sets Fly-Client-IP; server/client-ip.ts).
app.set("trust proxy", env.TRUST_PROXY ? TRUSTED_PROXIES : false);
// Headers every answer carries, /healthz's included (helmet; HSTS in production).
app.use(fixedSecurityHeaders({ production: !dev && env.NODE_ENV === "production" }));
// Then, from memory: the platform's check never waits behind page renders (decision 211).
const health = healthEndpoint(() => hooks.health());
app.use(health.middleware);
app.use(limitRequestBodies(words));
app.use(refuseBackslashPaths(words));
// Static files early: they need no nonce, no CSP, no log line.
if (remixBuild.devMiddleware) app.use(remixBuild.devMiddleware);
if (remixBuild.clientDir) app.use(clientFiles(remixBuild.clientDir));
// A bounded number of page requests in flight, a short queue, the excess refused at once and
// cheaply, before any per-request work (decision 212). The result page of a draw just made waits
// ahead of the others: the draw is stored, its code must reach the visitor.
const recentDraws = new RecentDraws();
const admissionLimits = admissionLimitsFromEnv(process.env);
const admission = admissionControl(admissionLimits, words, (req) => recentDraws.has(req.query.draw));
app.use((req, _res, next) => {
  if (req.method === "GET") recentDraws.arrived(req.query.draw);
  next();
}, admission);
// What the draw action asks admission control (AppLoadContext.draws): may a draw be made, and its
// result page, once the draw is stored, waits ahead of other pages.
const drawAdmission = {
  backedUp: (drawing: number) => admission.drawsBackedUp(drawing + recentDraws.owedCount()),
  made: (location: string) => recentDraws.note(location),
  retryAfterSeconds: admissionLimits.retryAfterSeconds,
};

app.use(securityHeaders({ csp: !dev }));
if (env.LOG_REQUESTS !== "0") app.use(requestLog(log));
// Open event streams, bounded (past the bound: 204, decision 280), so that a shutdown can end them at once.
const eventStreams = trackEventStreams(eventStreamsMaxFromEnv(process.env), (req) => clientIpOf(req, env.TRUST_PROXY));
app.use(eventStreams.middleware);
app.use(refuseForbiddenWrites(remixBuild.hooks));

// Uploaded platform logos (admin), cached for an hour: stored in the database (every process serves
// them); files on UPLOADS_DIR are those a server before migration 0009 wrote, still served.
const uploadsDir = path.resolve(env.UPLOADS_DIR);
fs.mkdirSync(uploadsDir, { recursive: true });
app.use("/uploads", express.static(uploadsDir, { maxAge: "1h", index: false, dotfiles: "deny" }));
app.use("/uploads", uploadsFromDatabase(remixBuild.hooks));

// The sitemap audit answers JSON to clients asking for it: that is its resource route.
app.get("/sitemap-audit", (req, _res, next) => {
  if (req.accepts(["text/html", "application/json"]) === "application/json") {
    req.url = req.originalUrl = req.originalUrl.replace(/^\/sitemap-audit/, "/sitemap-audit.json");
  }
  next();
});
// Anonymous pages kept a few seconds (server/page-cache.ts); PAGE_CACHE_MS=0 turns it off (benchmarks).
const pageCacheMs = Number(process.env.PAGE_CACHE_MS ?? 3_000);
if (!dev && pageCacheMs > 0) app.use(pageCache({ ttlMs: pageCacheMs, share: hooks.sharePageWrites }));
app.all(
  "*",
  createRequestHandler({
    build: remixBuild.build,
    mode: dev ? "development" : "production",
    getLoadContext: (req, res) => ({
      clientIp: clientIpOf(req, env.TRUST_PROXY),
      cspNonce: res.locals.cspNonce as string,
      contentSecurityPolicy: res.getHeader("Content-Security-Policy") as string | undefined,
      siteCss: remixBuild.siteCss,
      draws: drawAdmission,
      leaveAdmission: res.locals[LEAVE_ADMISSION] as (() => void) | undefined,
    }),
  }),
);
app.use(ignoreFailuresAfterBodyRefusal());
app.use(finalErrorHandler(log, words));

const server = createHardenedServer(app, { trustProxy: env.TRUST_PROXY }).listen(env.PORT, () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : env.PORT;
  // What is served, not NODE_ENV: `npm start` serves the production build even with NODE_ENV unset.
  log(
    `Parrainly listening on http://localhost:${port} (${dev ? "development server, Vite" : `production build, React ${reactBuildLoaded()}`})`,
  );
});

closeGracefullyOnSignals(server, eventStreams.endAll, {
  stopJobs: hooks.startJobs(log),
  closeDatabase: hooks.close,
  log,
  onStart: health.shuttingDown,
});
