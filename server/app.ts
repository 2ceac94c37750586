import fs from "node:fs";
import path from "node:path";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import express, { type RequestHandler } from "express";
import { databaseHealth } from "~db/availability.server";
import { announcePagesChanged, onPagesChangedElsewhere } from "~db/site-writes.server";
import { closeDatabase, prepareDatabase, startJobs } from "~/start.server";
import { getEnv } from "~/utils/env.server";
import { admissionControl, admissionLimitsFromEnv, LEAVE_ADMISSION } from "./admission";
import { clientIpOf, TRUSTED_PROXIES } from "./client-ip";
import { finalErrorHandler } from "./error-page";
import { eventStreamsMaxFromEnv, trackEventStreams } from "./event-streams";
import { refuseForbiddenWrites } from "./guards";
import { healthEndpoint } from "./health";
import { createHardenedServer } from "./http-server";
import { pageCache } from "./page-cache";
import { refuseBackslashPaths } from "./path-guard";
import { RecentDraws } from "./recent-draws";
import { refusalWords } from "./refusal-texts";
import { ignoreFailuresAfterBodyRefusal, limitRequestBodies } from "./request-body";
import { requestLog } from "./request-log";
import { fixedSecurityHeaders, securityHeaders } from "./security-headers";
import { closeGracefullyOnSignals } from "./shutdown";
import { reactBuildLoaded, startOrExplain } from "./start-up";
import { clientFiles } from "./static";
import { uploadsFromDatabase } from "./uploads";

/** What the runner (server/index.ts) loaded: the Remix build and, by mode, Vite's middleware or the client files. */
export interface RemixBuild {
  /** What Remix's request handler takes: the build, or in development a function that loads the current one. */
  build: ServerBuild | (() => Promise<ServerBuild>);
  /** In development, Vite's middleware (assets, HMR); none in production. */
  devMiddleware?: RequestHandler;
  /** In production, the client files of the build (assets, favicon...). */
  clientDir?: string;
  /** In production, the site's stylesheet (build/site.css) as text, read once, inlined in every page. */
  siteCss?: string;
}

/** Several processes on one database (decision 365): what the page cache clears, and tells the others. */
const sharePageWrites = (clear: () => void) => {
  onPagesChangedElsewhere(clear);
  return announcePagesChanged;
};

/**
 * The Express server: a module of the Remix server build (app/entry.server.tsx exports it), so it
 * imports the app's modules as any route does, and each is loaded once (decisions 001, 403). The
 * configuration and the database are made ready before the port opens; then the middleware in the
 * order a request meets it, Remix's official Express adapter last; then the graceful shutdown.
 */
export async function startServer(remix: RemixBuild, dev: boolean): Promise<void> {
  const log = (line: string) => console.log(`${new Date().toISOString()} ${line}`);
  // A configuration or a database that stops the start says why in one line (server/start-up.ts).
  const env = await startOrExplain(async () => {
    const config = getEnv();
    await prepareDatabase(log);
    return config;
  });

  const app = express();
  app.disable("x-powered-by");
  // Express's own error pages never show a stack in the production build, whatever NODE_ENV says.
  if (!dev) app.set("env", "production");
  // Proxy headers are honoured only when asked (Fly sets Fly-Client-IP; server/client-ip.ts).
  app.set("trust proxy", env.TRUST_PROXY ? TRUSTED_PROXIES : false);
  // Headers every answer carries, /healthz's included (helmet; HSTS in production).
  app.use(fixedSecurityHeaders({ production: !dev && env.NODE_ENV === "production" }));
  // Then, from memory: the platform's check never waits behind page renders (decision 211).
  const health = healthEndpoint(databaseHealth);
  app.use(health.middleware);
  app.use(limitRequestBodies(refusalWords));
  app.use(refuseBackslashPaths(refusalWords));
  // Static files early: they need no nonce, no CSP, no log line.
  if (remix.devMiddleware) app.use(remix.devMiddleware);
  if (remix.clientDir) app.use(clientFiles(remix.clientDir));
  // A bounded number of page requests in flight, a short queue, the excess refused at once and
  // cheaply, before any per-request work (decision 212). The result page of a draw just made waits
  // ahead of the others: the draw is stored, its code must reach the visitor.
  const recentDraws = new RecentDraws();
  const admissionLimits = admissionLimitsFromEnv(process.env);
  const admission = admissionControl(admissionLimits, refusalWords, (req) => recentDraws.has(req.query.draw));
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
  app.use(refuseForbiddenWrites());

  // Uploaded platform logos (admin), cached for an hour: stored in the database (every process serves
  // them); files on UPLOADS_DIR are those a server before migration 0009 wrote, still served.
  const uploadsDir = path.resolve(env.UPLOADS_DIR);
  fs.mkdirSync(uploadsDir, { recursive: true });
  app.use("/uploads", express.static(uploadsDir, { maxAge: "1h", index: false, dotfiles: "deny" }));
  app.use("/uploads", uploadsFromDatabase());

  // The sitemap audit answers JSON to clients asking for it: that is its resource route.
  app.get("/sitemap-audit", (req, _res, next) => {
    if (req.accepts(["text/html", "application/json"]) === "application/json") {
      req.url = req.originalUrl = req.originalUrl.replace(/^\/sitemap-audit/, "/sitemap-audit.json");
    }
    next();
  });
  // Anonymous pages kept a few seconds (server/page-cache.ts); PAGE_CACHE_MS=0 turns it off (benchmarks).
  const pageCacheMs = Number(process.env.PAGE_CACHE_MS ?? 3_000);
  if (!dev && pageCacheMs > 0) app.use(pageCache({ ttlMs: pageCacheMs, share: sharePageWrites }));
  app.all(
    "*",
    createRequestHandler({
      build: remix.build,
      mode: dev ? "development" : "production",
      getLoadContext: (req, res) => ({
        clientIp: clientIpOf(req, env.TRUST_PROXY),
        cspNonce: res.locals.cspNonce as string,
        contentSecurityPolicy: res.getHeader("Content-Security-Policy") as string | undefined,
        siteCss: remix.siteCss,
        draws: drawAdmission,
        leaveAdmission: res.locals[LEAVE_ADMISSION] as (() => void) | undefined,
      }),
    }),
  );
  app.use(ignoreFailuresAfterBodyRefusal());
  app.use(finalErrorHandler(log, refusalWords));

  const server = createHardenedServer(app, { trustProxy: env.TRUST_PROXY }).listen(env.PORT, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : env.PORT;
    // What is served, not NODE_ENV: `npm start` serves the production build even with NODE_ENV unset.
    log(
      `Parrainly listening on http://localhost:${port} (${dev ? "development server, Vite" : `production build, React ${reactBuildLoaded()}`})`,
    );
  });

  closeGracefullyOnSignals(server, eventStreams.endAll, {
    stopJobs: startJobs(log),
    closeDatabase,
    log,
    onStart: health.shuttingDown,
  });
}
