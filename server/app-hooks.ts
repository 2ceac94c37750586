import type { ServerBuild } from "@remix-run/node";

type Log = (line: string) => void;

/** What the first look at a request needs (header values as sent). */
export interface WriteSummary {
  method: string;
  /** Normalised: decoded, lower-case (server/request-path.ts). */
  path: string;
  /** `Sec-Fetch-Site`: where the browser says the request comes from. */
  fetchSite: string | undefined;
  origin: string | undefined;
  referer: string | undefined;
  host: string | undefined;
  forwardedHost: string | undefined;
}

/** The refusals the server answers before Remix runs. */
export type RefusalKey = "notFound" | "tooLarge" | "overloaded" | "badRequest" | "serverError";

/** What the language of a refusal depends on (header values as sent; `search` is the URL's query or ""). */
export interface RefusalRequest {
  method: string;
  search: string;
  cookie: string | undefined;
  acceptLanguage: string | undefined;
  contentType: string | undefined;
}

/**
 * What this server needs from the app. The app hands it over as the named export `serverHooks` of
 * app/entry.server.tsx, which the Remix build re-exports as `build.entry.module`: the server imports
 * nothing from app/ or db/, so every app module (the database handle, the draw queue, caches) is
 * loaded once, inside the Remix build (decision 001).
 */
export interface AppHooks {
  /** The checked configuration; throws a readable error when it is wrong (the server does not start). */
  config(): {
    NODE_ENV: string;
    PORT: number;
    SITE_URL: string;
    TRUST_PROXY: boolean;
    UPLOADS_DIR: string;
    LOG_REQUESTS?: string;
  };
  /** Everything true before the first request: schema at latest, base data, admin from env. */
  prepare(log: Log): Promise<void>;
  /**
   * Starts the background jobs; the function returned stops them, and resolves once the runs under
   * way have ended their current batch (decision 294).
   */
  startJobs(log: Log): () => Promise<void>;
  /** Closes the database (graceful shutdown); a failure to fold the WAL in is logged, not thrown. */
  close(): Promise<void>;
  /** Whether writes can succeed, from memory (no query): what /healthz answers. */
  health(): { ok: true } | { ok: false; reason: string };
  /**
   * Cheap first look at a request, on every one: false when it is surely let through (a read, a
   * same-site write outside /admin), true when `refuseWrite` must decide.
   */
  mayRefuseWrite(request: WriteSummary): boolean;
  /**
   * The 403 for a write refused before Remix (cross-site, or a stranger's write under /admin), in the
   * visitor's language; null lets it through. Gets the request's method, address and headers, no body.
   */
  refuseWrite(request: Request): Promise<Response | null>;
  /**
   * The words of a refusal answered before Remix (404, 413, 503, 400, 500), in the language the app
   * would answer in. Synchronous and cheap (a few string operations and a look-up): it is called
   * while the server is overloaded.
   */
  refusalText(request: RefusalRequest, key: RefusalKey): string;
  /**
   * Puts the app's last net around every route's loader and action (decision 304): a database that
   * refuses for now is a 503 with Retry-After and a named message, never a 500. Called on the build
   * before Remix's request handler is made from it.
   */
  guardRoutes(routes: ServerBuild["routes"]): void;
  /**
   * Several processes on one database (decision 365): `clear` runs when another process's write
   * request succeeded; the function returned tells the others that one succeeded here.
   */
  sharePageWrites(clear: () => void): () => void;
  /** An uploaded logo stored in the database, by the file name of its `/uploads/<name>` URL; null when none. */
  readUpload(name: string): Promise<{ contentType: string; bytes: Uint8Array } | null>;
}

export function appHooksOf(build: ServerBuild): AppHooks {
  const hooks = (build.entry.module as { serverHooks?: AppHooks }).serverHooks;
  if (!hooks) throw new Error("The Remix build has no serverHooks: app/entry.server.tsx must export them.");
  return hooks;
}
