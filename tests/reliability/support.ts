import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import SQLite from "better-sqlite3";
import { startFlags } from "../../scripts/bench-pages";
import { startServerWithAdmin } from "../support/admin";
import { ROOT, TMP } from "../support/paths";
import type { RunningServer } from "../support/server";

export const FIGURES_DIR = path.join(TMP, "reliability-figures");

/**
 * The node flags of `npm start` (the image's command: V8's heap sized for the 256 MB VM), for a test
 * that judges the server's memory. Without them V8 sizes itself for this machine (16 MB semi-spaces,
 * an old generation collected lazily) and the same load peaks 60-100 MB higher in garbage not yet
 * collected (decision 212).
 */
export const PRODUCTION_NODE_OPTIONS = startFlags(ROOT).join(" ");

/** Each test file leaves its figures here; the suite's teardown prints them all at the end. */
export function recordFigures(name: string, figures: Record<string, number | string>) {
  fs.mkdirSync(FIGURES_DIR, { recursive: true });
  fs.writeFileSync(path.join(FIGURES_DIR, `${name}.json`), JSON.stringify(figures));
}

/**
 * The built server as in production behind Fly (TRUST_PROXY=1, so each simulated client can have
 * its own address), with an admin. Everything stays on this machine: the captcha verification URL
 * points at a closed loopback port.
 */
export function startReliabilityServer(env: Record<string, string> = {}): Promise<RunningServer> {
  return startServerWithAdmin({ TRUST_PROXY: "1", RECAPTCHA_VERIFY_URL: "http://127.0.0.1:9/siteverify", ...env });
}

/** A second, read-only handle on the server's database file (WAL: reads never block the server). */
export function openReadOnly(file: string): SQLite.Database {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  db.pragma("busy_timeout = 5000");
  return db;
}

/** Row count of every table, as one comparable string. */
export function rowCountsOf(db: SQLite.Database, { except = [] as string[] } = {}): () => string {
  const tables = (
    db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as Array<{
      name: string;
    }>
  )
    .map((t) => t.name)
    .filter((name) => !except.includes(name));
  const query = db.prepare(`SELECT ${tables.map((t) => `(SELECT count(*) FROM "${t}") AS "${t}"`).join(", ")}`);
  return () => JSON.stringify(query.get());
}

export interface PlainAnswer {
  status: number;
  location: string | null;
}

/**
 * A urlencoded POST through a shared agent (a bounded number of keep-alive connections, as a
 * proxy would use), resolving with the status; a network failure resolves with status 0.
 */
export function postThrough(
  agent: http.Agent,
  url: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<PlainAnswer> {
  return new Promise((resolve) => {
    const target = new URL(url);
    const req = http.request(
      {
        agent,
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: "POST",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          "Content-Length": Buffer.byteLength(body),
          Origin: target.origin,
          ...headers,
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, location: res.headers.location ?? null }));
      },
    );
    req.on("error", () => resolve({ status: 0, location: null }));
    req.end(body);
  });
}

/** Inserts `count` codes for a platform directly in the file (the server sees them at once). */
export function insertCodes(file: string, platformSlug: string, count: number, prefix: string): number {
  const db = new SQLite(file);
  db.pragma("busy_timeout = 5000");
  try {
    const platform = db.prepare("SELECT id FROM platforms WHERE slug = ?").get(platformSlug) as { id: number } | undefined;
    if (!platform) throw new Error(`no platform ${platformSlug}`);
    const insert = db.prepare("INSERT INTO referral_codes (platform_id, code, created_at) VALUES (?, ?, ?)");
    db.transaction(() => {
      for (let i = 0; i < count; i++) insert.run(platform.id, `${prefix}${i}`, new Date().toISOString());
    })();
    return platform.id;
  } finally {
    db.close();
  }
}
