import crypto from "node:crypto";
import { runWrite } from "../availability.server";
import { getDb, type DB } from "../client.server";
import { applyLedgerEvent, type LedgerEvent, type LedgerHeader, type LedgerState } from "../ledger-rule";

/**
 * The public ledger (issue 61, docs/ledger.md, decision 360). Triggers of migration 0021 write one
 * row per draw and per change of a code's eligibility; this module publishes them as one file per
 * platform and UTC day: a header line (the previous day's SHA-256 and the rotation state at the
 * day's start), then one event per line. A closed day's header and hash are kept the first time they
 * are worked out (ledger_days), so its file never changes; its events are streamed a page at a time.
 */

/** Rows read per page while a day is streamed: a day of 50,000 draws never sits in memory. */
const PAGE = 1000;
/** A day is closed this long after its end: a transaction that read the clock just before midnight has committed by then. */
const CLOSING_GRACE_MS = 5 * 60_000;

/**
 * A code's handle: a keyed hash of its id (HMAC-SHA256 with the server's secret, 128 bits), stable
 * across days, linked to no code by anyone without the secret.
 */
export function ledgerHandle(secret: string, codeId: number): string {
  return crypto.createHmac("sha256", secret).update(`parrainly:ledger:${codeId}`).digest("base64url").slice(0, 22);
}

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** True for a real calendar date written `YYYY-MM-DD`. */
function isLedgerDay(day: string): boolean {
  if (!DAY_PATTERN.test(day)) return false;
  const parsed = new Date(`${day}T00:00:00.000Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === day;
}

export function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString().slice(0, 10);
}

interface LedgerPlatform {
  id: number;
  slug: string;
  /** The first day with an event; null when the platform has none yet. */
  firstDay: string | null;
  /** The day whose file grows now: today, or a later day an event already has. */
  openDay: string;
}

async function lastDay(platformId: number, db: DB): Promise<string | null> {
  const row = await db
    .selectFrom("ledger_events")
    .select("day")
    .where("platform_id", "=", platformId)
    .orderBy("day", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.day ?? null;
}

/** The platform's ledger bounds, or null when no platform has this slug. */
async function ledgerPlatform(slug: string, now = new Date(), db: DB = getDb()): Promise<LedgerPlatform | null> {
  const platform = await db.selectFrom("platforms").select(["id", "slug"]).where("slug", "=", slug).executeTakeFirst();
  if (!platform) return null;
  const first = await db
    .selectFrom("ledger_events")
    .select("day")
    .where("platform_id", "=", platform.id)
    .orderBy("day", "asc")
    .orderBy("id", "asc")
    .limit(1)
    .executeTakeFirst();
  const today = new Date(now.getTime() - CLOSING_GRACE_MS).toISOString().slice(0, 10);
  const last = await lastDay(platform.id, db);
  return { id: platform.id, slug: platform.slug, firstDay: first?.day ?? null, openDay: last && last > today ? last : today };
}

/** One page of a day's events, in the order they committed. */
async function eventPage(platformId: number, day: string, afterId: number, db: DB) {
  return db
    .selectFrom("ledger_events")
    .select(["id", "code_id", "type", "at", "count", "active", "expires", "capped"])
    .where("platform_id", "=", platformId)
    .where("day", "=", day)
    .where("id", ">", afterId)
    .orderBy("id", "asc")
    .limit(PAGE)
    .execute();
}

/** A day's events as published, a page at a time. */
async function* dayEvents(secret: string, platformId: number, day: string, db: DB): AsyncGenerator<LedgerEvent> {
  const handles = new Map<number, string>();
  const handleOf = (id: number) => {
    let handle = handles.get(id);
    if (!handle) {
      handle = ledgerHandle(secret, id);
      if (handles.size > 50_000) handles.clear();
      handles.set(id, handle);
    }
    return handle;
  };
  let after = 0;
  for (;;) {
    const rows = await eventPage(platformId, day, after, db);
    for (const row of rows) {
      yield {
        type: row.type as LedgerEvent["type"],
        at: row.at,
        handle: handleOf(row.code_id),
        count: Number(row.count),
        active: Number(row.active) === 1,
        expires: row.expires,
        capped: row.capped,
      };
    }
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1]!.id;
    // SQLite reads synchronously: a turn of the event loop lets the socket send the page before the
    // next is read (Remix's adapter writes without waiting for the socket to drain).
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** A line of the file: JSON with keys in a fixed order, and a newline. */
function headerLine(header: LedgerHeader): string {
  return `${JSON.stringify(header)}\n`;
}
function eventLine(event: LedgerEvent): string {
  return `${JSON.stringify(event)}\n`;
}

function stateList(state: LedgerState): LedgerHeader["state"] {
  return [...state.values()].sort((a, b) => (a.handle < b.handle ? -1 : a.handle > b.handle ? 1 : 0));
}

/** Streams a day's events through the hash and the state; returns the file's SHA-256. */
async function closeDay(
  secret: string,
  platformId: number,
  header: LedgerHeader,
  db: DB,
): Promise<{ sha256: string; state: LedgerState }> {
  const hash = crypto.createHash("sha256").update(headerLine(header));
  const state: LedgerState = new Map(header.state.map((entry) => [entry.handle, { ...entry }]));
  for await (const event of dayEvents(secret, platformId, header.day, db)) {
    hash.update(eventLine(event));
    applyLedgerEvent(state, event);
  }
  return { sha256: hash.digest("hex"), state };
}

/**
 * The header of `day` (which must be between the first day and the open day). Headers are kept
 * (ledger_days) the first time they are worked out, the hash of a day once it is closed: a day is
 * then read once, not at every request, and a closed day's file never changes.
 */
async function dayHeader(secret: string, platform: LedgerPlatform, day: string, db: DB): Promise<LedgerHeader> {
  const kept = await db
    .selectFrom("ledger_days")
    .select(["day", "header", "sha256"])
    .where("platform_id", "=", platform.id)
    .where("day", "<=", day)
    .orderBy("day", "desc")
    .limit(1)
    .executeTakeFirst();
  if (kept?.day === day) return JSON.parse(kept.header) as LedgerHeader;
  let header: LedgerHeader = kept
    ? (JSON.parse(kept.header) as LedgerHeader)
    : { platform: platform.slug, day: platform.firstDay!, previous: null, state: [] };
  if (!kept) {
    await keepDay(platform.id, header, "", db);
    if (header.day === day) return header;
  }
  // Every day from the last kept one to `day` is closed: its hash and end state lead to the next header.
  for (;;) {
    const { sha256, state } = await closeDay(secret, platform.id, header, db);
    if (kept?.day !== header.day || kept.sha256 === "") await keepDay(platform.id, header, sha256, db);
    header = { platform: platform.slug, day: nextDay(header.day), previous: sha256, state: stateList(state) };
    await keepDay(platform.id, header, "", db);
    if (header.day === day) return header;
  }
}

/** Keeps a day's header, and its hash once closed (empty until then). */
async function keepDay(platformId: number, header: LedgerHeader, sha256: string, db: DB): Promise<void> {
  // A cache of what the events already say: a refusal (busy database) costs the next reader the work again.
  await runWrite(
    "ledger-day",
    () =>
      db
        .insertInto("ledger_days")
        .values({ platform_id: platformId, day: header.day, header: JSON.stringify(header), sha256 })
        .onConflict((oc) => oc.columns(["platform_id", "day"]).doUpdateSet({ sha256 }).where("ledger_days.sha256", "=", ""))
        .execute(),
    "skip",
  );
}

export interface LedgerDayFile {
  closed: boolean;
  /** The file's lines, read from the database as they are sent. */
  lines: () => AsyncGenerator<string>;
}

/** A day's file, or null when the platform has no such day (before its first, after today). */
export async function ledgerDayFile(
  secret: string,
  slug: string,
  day: string,
  now = new Date(),
  db: DB = getDb(),
): Promise<LedgerDayFile | null> {
  if (!isLedgerDay(day)) return null;
  const platform = await ledgerPlatform(slug, now, db);
  if (!platform?.firstDay || day < platform.firstDay || day > platform.openDay) return null;
  const header = await dayHeader(secret, platform, day, db);
  return {
    closed: day < platform.openDay,
    lines: async function* () {
      yield headerLine(header);
      for await (const event of dayEvents(secret, platform.id, day, db)) yield eventLine(event);
    },
  };
}

export interface LedgerHead {
  platform: string;
  /** The first day of the platform's ledger (null: none yet). */
  first: string | null;
  /** The last closed day and its file's SHA-256 (null: none closed yet). */
  day: string | null;
  sha256: string | null;
  /** The day whose file grows now. */
  open: string | null;
}

/** The last closed day of a platform and its hash; null for an unknown platform. */
export async function ledgerHead(secret: string, slug: string, now = new Date(), db: DB = getDb()): Promise<LedgerHead | null> {
  const platform = await ledgerPlatform(slug, now, db);
  if (!platform) return null;
  if (!platform.firstDay) return { platform: slug, first: null, day: null, sha256: null, open: null };
  const open = platform.openDay;
  if (platform.firstDay >= open) return { platform: slug, first: platform.firstDay, day: null, sha256: null, open };
  // The open day's header names the last closed day's hash (and keeps every closed day on the way).
  const header = await dayHeader(secret, platform, open, db);
  const closed = new Date(Date.parse(`${open}T00:00:00.000Z`) - 86_400_000).toISOString().slice(0, 10);
  return { platform: slug, first: platform.firstDay, day: closed, sha256: header.previous, open };
}

/**
 * The heads of the active platforms that have a ledger (for /fairness/ledger, /fairness and the
 * Atom feed): those named in `slugs`, else the first `limit` by slug.
 */
export async function ledgerHeads(
  secret: string,
  now = new Date(),
  { limit = 100, slugs }: { limit?: number; slugs?: string[] } = {},
  db: DB = getDb(),
): Promise<LedgerHead[]> {
  if (slugs?.length === 0) return [];
  const platforms = await db
    .selectFrom("platforms")
    .select("slug")
    .where("is_active", "=", 1)
    .$if(slugs !== undefined, (qb) => qb.where("slug", "in", slugs!))
    .orderBy("slug")
    .limit(limit)
    .execute();
  const heads: LedgerHead[] = [];
  for (const { slug } of platforms) {
    const head = await ledgerHead(secret, slug, now, db);
    if (head?.first) heads.push(head);
  }
  return heads;
}

/** The UTC days a code was served, newest first, at most `limit` (the owner's page links to them). */
export async function daysServed(codeId: number, limit = 30, db: DB = getDb()): Promise<string[]> {
  const rows = await db
    .selectFrom("ledger_events")
    .select("day")
    .distinct()
    .where("code_id", "=", codeId)
    .where("type", "=", "draw")
    .orderBy("day", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => row.day);
}
