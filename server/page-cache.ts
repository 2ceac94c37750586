import type { RequestHandler, Response } from "express";

/**
 * An anonymous HTML micro-cache in front of Remix: a page rendered for a visitor without a session
 * is kept a few seconds and served again to visitors who would get the very same bytes. The key is
 * the path and query, the cookies a page depends on (language, theme, consent) and Accept-Language
 * (the language when no cookie is set). Only GETs from requests whose cookies are all among those
 * are looked up or stored: a session, a toast, a vote identity or any other cookie goes to Remix.
 * Only a 200 text/html answer without Set-Cookie is stored. Any write that reaches Remix (a non-GET,
 * e.g. an admin saving a setting) empties the cache when it ends, so what it changed shows at once.
 * Each answer keeps its own CSP nonce: the stored page's nonce is replaced by the request's.
 */
const KEYED_COOKIES = new Set(["language", "theme", "consent"]);
const SKIPPED_PREFIXES = ["/admin", "/events", "/healthz"];

interface Entry {
  expires: number;
  status: number;
  headers: Array<[string, string | number | string[]]>;
  body: string;
  nonce: string;
}

export function pageCache({ ttlMs = 3_000, maxEntries = 500 } = {}): RequestHandler & { clear: () => void } {
  const entries = new Map<string, Entry>();

  const keyOf = (method: string, url: string, cookie: string | undefined, acceptLanguage: string | undefined) => {
    if (method !== "GET") return null;
    const pathname = url.split("?", 1)[0]!;
    if (pathname.endsWith(".data") || SKIPPED_PREFIXES.some((p) => pathname === p || pathname.startsWith(`${p}/`))) {
      return null;
    }
    const kept: string[] = [];
    if (cookie) {
      for (const part of cookie.split(";")) {
        const pair = part.trim();
        if (!pair) continue;
        const eq = pair.indexOf("=");
        if (!KEYED_COOKIES.has(eq < 0 ? pair : pair.slice(0, eq))) return null;
        kept.push(pair);
      }
    }
    return `${url}\n${kept.sort().join(";")}\n${acceptLanguage ?? ""}`;
  };

  const handler: RequestHandler = (req, res, next) => {
    if (req.method !== "GET") {
      // A write may change what pages show: forget them once it is done, whatever its outcome.
      res.once("close", () => entries.clear());
      return next();
    }
    const key = keyOf(req.method, req.originalUrl, req.headers.cookie, req.headers["accept-language"]);
    if (key === null) return next();
    const nonce = res.locals.cspNonce as string;
    const now = Date.now();
    const hit = entries.get(key);
    if (hit && hit.expires > now) {
      for (const [name, value] of hit.headers) res.setHeader(name, value);
      res.status(hit.status).end(hit.nonce ? hit.body.replaceAll(hit.nonce, nonce) : hit.body);
      return;
    }
    if (hit) entries.delete(key);
    capture(res, (body) => {
      const type = String(res.getHeader("content-type") ?? "");
      if (res.statusCode !== 200 || !type.startsWith("text/html") || res.getHeader("set-cookie") !== undefined) return;
      const headers = Object.entries(res.getHeaders())
        .filter(([name]) => name !== "content-security-policy" && name !== "content-length" && name !== "date")
        .map(([name, value]) => [name, value!] as [string, string | number | string[]]);
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      entries.set(key, { expires: Date.now() + ttlMs, status: 200, headers, body, nonce });
    });
    next();
  };
  return Object.assign(handler, { clear: () => entries.clear() });
}

/** Passes the response through unchanged and hands its whole body to `done` once it is sent. */
function capture(res: Response, done: (body: string) => void) {
  const chunks: Buffer[] = [];
  const keep = (chunk: unknown, encoding?: unknown) => {
    if (chunk == null || typeof chunk === "function") return;
    chunks.push(
      Buffer.isBuffer(chunk)
        ? chunk
        : chunk instanceof Uint8Array
          ? Buffer.from(chunk)
          : Buffer.from(String(chunk), typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8"),
    );
  };
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  res.write = ((...args: unknown[]) => {
    keep(args[0], args[1]);
    return write(...args);
  }) as Response["write"];
  res.end = ((...args: unknown[]) => {
    keep(args[0], args[1]);
    return end(...args);
  }) as Response["end"];
  res.once("finish", () => done(Buffer.concat(chunks).toString("utf8")));
}
