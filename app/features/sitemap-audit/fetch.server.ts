import dns, { type LookupAddress, type LookupOptions } from "node:dns";
import http, { type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import https from "node:https";
import type { Socket } from "node:net";
import { pipeline, Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import { checkAddress, hostKey, ipLiteral, isPrivateHostname } from "./address-rules";

/**
 * The audit's only way out to the network. Strangers choose the URL, so: http(s) only, no
 * credentials, names and addresses checked when the socket connects (the address actually used,
 * so a name that changes its answer between two look-ups gains nothing), redirects followed by
 * hand and checked again, a connect timeout, the caller's overall deadline, and capped reads.
 */

export type RefusalReason = "invalid-url" | "scheme" | "credentials" | "private-name" | "private-address";

/** A URL we will not fetch: the visitor gets a 4xx. */
export class AuditRefusal extends Error {
  constructor(
    readonly reason: RefusalReason,
    readonly url: string,
    readonly detail = "",
  ) {
    super(`refused ${reason}: ${url} ${detail}`.trim());
  }
}

export type FetchFailureReason =
  "timeout" | "connect-timeout" | "dns" | "connection" | "tls" | "too-many-redirects" | "bad-redirect" | "network";

/** A fetch that could not complete: 'Erreur lors de l'audit' with the reason. */
export class AuditFetchError extends Error {
  constructor(
    readonly reason: FetchFailureReason,
    readonly url: string,
    readonly detail = "",
  ) {
    super(`fetch failed ${reason}: ${url} ${detail}`.trim());
  }
}

export interface FetchPolicy {
  /** `host:port` pairs that may resolve to private addresses (tests only). */
  allowedHosts: ReadonlySet<string>;
  connectTimeoutMs: number;
  maxRedirects: number;
  /** The whole audit's deadline. */
  signal: AbortSignal;
  userAgent: string;
}

export interface FetchedResponse {
  url: URL;
  status: number;
  headers: IncomingHttpHeaders;
  body: IncomingMessage;
  /** Every URL before the final one, in order. */
  redirects: string[];
  /** From the first request to the final response's headers. */
  elapsedMs: number;
}

/** Parses what a visitor typed; throws an AuditRefusal for anything we will not try. */
export function parseAuditUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new AuditRefusal("invalid-url", raw);
  }
  assertFetchable(url);
  return url;
}

function assertFetchable(url: URL) {
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new AuditRefusal("scheme", url.href);
  if (url.username || url.password) throw new AuditRefusal("credentials", url.href);
}

/** Name and literal checks that need no connection; the address check itself runs at connect. */
function assertHostAllowed(url: URL, policy: FetchPolicy): boolean {
  if (policy.allowedHosts.has(hostKey(url))) return true;
  if (isPrivateHostname(url.hostname)) throw new AuditRefusal("private-name", url.href, url.hostname);
  const literal = ipLiteral(url.hostname);
  if (literal) {
    const verdict = checkAddress(literal);
    if (!verdict.ok) throw new AuditRefusal("private-address", url.href, `${literal} (${verdict.range})`);
  }
  return false;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** dns.lookup that refuses a name when any of its addresses is not public. */
function guardedLookup(url: URL) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      for (const { address } of addresses) {
        const verdict = checkAddress(address);
        if (!verdict.ok) {
          return callback(new AuditRefusal("private-address", url.href, `${hostname} → ${address} (${verdict.range})`), []);
        }
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: "ENOTFOUND" }), []);
      callback(null, first.address, first.family);
    });
  };
}

function failureOf(error: unknown, url: URL, signal: AbortSignal): Error {
  if (error instanceof AuditRefusal || error instanceof AuditFetchError) return error;
  if (signal.aborted) return new AuditFetchError("timeout", url.href);
  const code = (error as NodeJS.ErrnoException)?.code ?? "";
  const detail = error instanceof Error ? error.message : String(error);
  if (code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "ENODATA") return new AuditFetchError("dns", url.href, detail);
  if (/^ERR_TLS|CERT|SSL|^EPROTO$/.test(code)) return new AuditFetchError("tls", url.href, detail);
  if (code === "ECONNREFUSED" || code === "ECONNRESET" || code === "EHOSTUNREACH" || code === "ENETUNREACH") {
    return new AuditFetchError("connection", url.href, detail);
  }
  return new AuditFetchError("network", url.href, detail);
}

/** One request, no redirect handling. */
function requestOnce(url: URL, policy: FetchPolicy, allowed: boolean, accept: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === "https:" ? https : http;
    const request = client.request(url, {
      method: "GET",
      agent: false,
      // Allowed test hosts resolve normally; everything else goes through the guard.
      lookup: allowed ? undefined : (guardedLookup(url) as never),
      signal: policy.signal,
      headers: { "User-Agent": policy.userAgent, Accept: accept, "Accept-Encoding": "gzip" },
    });
    const fail = (error: unknown) => {
      request.destroy();
      reject(failureOf(error, url, policy.signal));
    };
    request.on("error", fail);
    request.on("socket", (socket: Socket) => {
      const timer = setTimeout(() => request.destroy(new AuditFetchError("connect-timeout", url.href)), policy.connectTimeoutMs);
      socket.once("close", () => clearTimeout(timer));
      socket.once("connect", () => {
        clearTimeout(timer);
        // The address actually connected to, whatever produced it (a literal, a resolver).
        const address = socket.remoteAddress ?? "";
        const verdict = allowed ? { ok: true as const } : checkAddress(address);
        if (!verdict.ok) request.destroy(new AuditRefusal("private-address", url.href, `${address} (${verdict.range})`));
      });
    });
    request.on("response", resolve);
    request.end();
  });
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** GET with redirects followed by hand, each hop checked like the first. */
export async function safeGet(start: URL, policy: FetchPolicy, accept: string): Promise<FetchedResponse> {
  const began = performance.now();
  const redirects: string[] = [];
  let url = start;
  for (;;) {
    assertFetchable(url);
    const allowed = assertHostAllowed(url, policy);
    if (policy.signal.aborted) throw new AuditFetchError("timeout", url.href);
    const response = await requestOnce(url, policy, allowed, accept);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (!REDIRECTS.has(status) || !location) {
      return { url, status, headers: response.headers, body: response, redirects, elapsedMs: performance.now() - began };
    }
    // Never read a redirect's body: it could be endless.
    response.destroy();
    if (redirects.length >= policy.maxRedirects) throw new AuditFetchError("too-many-redirects", url.href);
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      throw new AuditFetchError("bad-redirect", url.href, location);
    }
    redirects.push(url.href);
    url = next;
  }
}

export interface BodyLimits {
  /** Bytes on the wire, and bytes after gunzip; reading stops just past either. */
  maxBytes: number;
}

export interface BodyStats {
  compressed: boolean;
  wireBytes: number;
  bytes: number;
  /** Stopped at the cap: the document was not read to the end. */
  truncated: boolean;
  /** gunzip failed (corrupt or not gzip after all). */
  decompressError: string | null;
}

const isGzipMagic = (chunk: Buffer) => chunk.length >= 2 && chunk[0] === 0x1f && chunk[1] === 0x8b;

/**
 * The body as it arrives, gunzipped when it is gzip (Content-Encoding, or the gzip magic bytes of
 * a `.xml.gz` file), never more than the cap either side of gunzip. Transport errors throw an
 * AuditFetchError; a corrupt gzip stream ends the body and is noted in `stats`.
 */
export async function* readBody(
  response: FetchedResponse,
  limits: BodyLimits,
  stats: BodyStats,
  signal: AbortSignal,
): AsyncGenerator<Buffer> {
  const raw = response.body;
  const url = response.url;
  const encoding = String(response.headers["content-encoding"] ?? "").toLowerCase();
  const iterator = raw[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let first: Buffer | null = null;
  try {
    const step = await iterator.next();
    first = step.done ? null : step.value;
  } catch (error) {
    raw.destroy();
    throw failureOf(error, url, signal);
  }
  if (!first) return;

  // Counts wire bytes and stops one byte past the cap.
  async function* wire(): AsyncGenerator<Buffer> {
    let chunk: Buffer | null = first;
    while (chunk) {
      const room = limits.maxBytes + 1 - stats.wireBytes;
      if (chunk.length >= room) {
        stats.wireBytes += room;
        stats.truncated = true;
        yield chunk.subarray(0, room);
        return;
      }
      stats.wireBytes += chunk.length;
      yield chunk;
      const step = await iterator.next();
      chunk = step.done ? null : step.value;
    }
  }

  stats.compressed = encoding.includes("gzip") || isGzipMagic(first);
  try {
    if (!stats.compressed) {
      for await (const chunk of wire()) {
        stats.bytes += chunk.length;
        yield chunk;
      }
      return;
    }
    const gunzip = createGunzip();
    const source = Readable.from(wire());
    let sourceError: unknown = null;
    pipeline(source, gunzip, (error) => {
      if (error && !gunzip.destroyed) gunzip.destroy();
      sourceError = error ?? null;
    });
    try {
      for await (const chunk of gunzip as AsyncIterable<Buffer>) {
        const room = limits.maxBytes + 1 - stats.bytes;
        if (chunk.length >= room) {
          stats.bytes += room;
          stats.truncated = true;
          yield chunk.subarray(0, room);
          return;
        }
        stats.bytes += chunk.length;
        yield chunk;
      }
    } catch (error) {
      if (error instanceof AuditFetchError || signal.aborted) throw error;
      if ((error as NodeJS.ErrnoException)?.code?.startsWith("Z_")) {
        stats.decompressError = (error as Error).message;
        return;
      }
      throw error;
    } finally {
      source.destroy();
      gunzip.destroy();
    }
    if (sourceError && (sourceError as NodeJS.ErrnoException).code?.startsWith("Z_")) {
      stats.decompressError = (sourceError as Error).message;
    }
  } catch (error) {
    throw failureOf(error, url, signal);
  } finally {
    raw.destroy();
  }
}

/** A small body read whole (robots.txt), cut at `maxBytes`. */
export async function readSmallBody(response: FetchedResponse, maxBytes: number, signal: AbortSignal): Promise<string> {
  const stats: BodyStats = { compressed: false, wireBytes: 0, bytes: 0, truncated: false, decompressError: null };
  const chunks: Buffer[] = [];
  for await (const chunk of readBody(response, { maxBytes }, stats, signal)) chunks.push(chunk);
  return Buffer.concat(chunks).subarray(0, maxBytes).toString("utf8");
}
