/**
 * The public pages' reads, kept a few seconds in this process (decision 264). Every visitor with a
 * cookie (a vote, a toast, a consent answer) misses the page cache and renders the page for real;
 * the catalogue and the figures it shows are the same for all of them, so the loaders read those
 * through here instead of querying for each visitor.
 *
 * A kept read is dropped as soon as this process writes something it may have read:
 *
 * - **catalogue** reads (`CATALOGUE_TABLES` only: platform rows and lists, partnerships, offers)
 *   stay until a write to one of those tables, or a delete anywhere (foreign keys cascade);
 * - **activity** reads (counts, answer figures: anything else) stay until any write at all;
 * - **published** reads (what the site publishes for machines, /api/platforms.json, /llms.txt and
 *   /sitemap.xml, announced as up to a minute old or more by their `Cache-Control`) stay `PUBLISHED_MS` whatever the
 *   draws and answers meanwhile, until a catalogue write: each costs a read per platform (40 ms on
 *   the scale data set), and on a busy site a draw lands between any two of a crawler's requests
 *   (decision 293).
 *
 * Every statement Kysely runs is seen after it ran (`noteStatement`, client.server.ts); the draw's own
 * prepared statements say so themselves (`noteWrite`); on PostgreSQL a commit counts as a write too
 * (a read between a statement and its commit saw the old rows). What no statement of this process
 * shows (time passing: a cap that ends, a day that turns; another machine's writes on PostgreSQL; a
 * script run by hand) is seen within `READ_CACHE_MS` (5 s; 0 turns the cache off, as the tests do:
 * their fixtures write the database file directly).
 *
 * Values are shared between requests: they are frozen, and a loader maps them into its own objects.
 */

import { readFromReplica } from "./read-replica.server";

/** The tables a catalogue read may touch. */
const CATALOGUE_TABLES = new Set(["platforms", "partnerships", "platform_offers"]);

export type ReadKind = "catalogue" | "activity" | "published";

/** How long a published read is kept (its routes say `max-age=60` and more). */
const PUBLISHED_MS = 60_000;

/** Bounded whatever the catalogue's size or what strangers ask: least recently used out first. */
const MAX_ENTRIES = 1_000;

interface Entry {
  value: Promise<unknown>;
  kind: ReadKind;
  at: number;
  catalogue: number;
  activity: number;
}

const entries = new Map<string, Entry>();
let catalogueVersion = 0;
let activityVersion = 0;
let ttlMs: number | undefined;

function lifetime(): number {
  ttlMs ??= Math.max(0, Number(process.env.READ_CACHE_MS ?? 5_000) || 0);
  return ttlMs;
}

/** A write this process made (or is about to commit), to the tables named; none named: any table. */
export function noteWrite(...tables: string[]): void {
  activityVersion++;
  if (tables.length === 0 || tables.some((table) => CATALOGUE_TABLES.has(table))) catalogueVersion++;
}

const WRITTEN_TABLE = /\b(insert\s+(?:or\s+\w+\s+)?into|replace\s+into|update|delete\s+from)\s+"?([A-Za-z_][\w]*)"?/gi;

const TRANSACTION_CONTROL = /^\s*(begin|commit|rollback|end|savepoint|release|start\s+transaction)\b[\w\s"]*;?\s*$/i;

/**
 * The tables a statement writes: null for a read, "any" for a statement it cannot name (DDL, a raw
 * statement, a write hidden in a `with`). A delete counts for its own table only: foreign keys
 * cascade from a parent to its children, and no catalogue table is the child of another table than
 * a catalogue one (platform_offers of platforms; tests/integration/read-cache-writes.test.ts holds
 * the schema to it), so a delete elsewhere never changes the catalogue (decision 296).
 */
export function tablesWrittenBy(sql: string): string[] | "any" | null {
  if (/^\s*select\b/i.test(sql)) return null;
  // A transaction's own statements write nothing themselves: its statements say what they wrote (and
  // on PostgreSQL its commit, client.server.ts). A `begin` once counted as a write to every table, so
  // each transaction on SQLite (an answer, a vote, a submission) dropped the catalogue reads.
  if (TRANSACTION_CONTROL.test(sql)) return null;
  const written = [...sql.matchAll(WRITTEN_TABLE)].map((match) => match[2]!);
  if (written.length > 0) return written;
  // Neither a select nor a write we can name (a `with … select`, DDL, a raw statement): anything
  // that is not plainly a read counts as a write to every table.
  return !/^\s*with\b/i.test(sql) || /\b(insert|update|delete|replace)\b/i.test(sql) ? "any" : null;
}

/** Called after each statement Kysely ran, with its SQL: a write drops what it may have changed. */
export function noteStatement(sql: string): void {
  const tables = tablesWrittenBy(sql);
  if (tables === "any") noteWrite();
  else if (tables !== null) noteWrite(...tables);
}

/** The tables whose foreign keys may only point at catalogue tables (the schema test reads it). */
export const CATALOGUE_TABLE_NAMES: readonly string[] = [...CATALOGUE_TABLES];

/**
 * `read()`'s value, kept under `key` while nothing it may depend on changed. Concurrent misses share
 * one read; a failed read is not kept. The versions are taken before reading: a write landing during
 * the read leaves the value already outdated.
 */
export function cachedRead<T>(key: string, kind: ReadKind, read: () => Promise<T>, now = Date.now()): Promise<T> {
  const ttl = lifetime();
  // On a replica when one is configured and has caught up (db/read-replica.server.ts).
  if (ttl === 0) return readFromReplica(read);
  const entry = entries.get(key);
  if (entry && fresh(entry, now, ttl)) {
    entries.delete(key);
    entries.set(key, entry);
    return entry.value as Promise<T>;
  }
  const value = readFromReplica(read).then(deepFreeze);
  const kept: Entry = { value, kind, at: now, catalogue: catalogueVersion, activity: activityVersion };
  entries.delete(key);
  entries.set(key, kept);
  if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
  value.catch(() => {
    if (entries.get(key) === kept) entries.delete(key);
  });
  return value;
}

function fresh(entry: Entry, now: number, ttl: number): boolean {
  const life = entry.kind === "published" ? PUBLISHED_MS : ttl;
  if (now - entry.at >= life || now < entry.at) return false;
  if (entry.catalogue !== catalogueVersion) return false;
  return entry.kind !== "activity" || entry.activity === activityVersion;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * Forgets the read kept under `key`: for a value not worth keeping (a slug no platform has), so
 * that strangers' made-up keys never push out the pages' own reads.
 */
export function forgetRead(key: string): void {
  entries.delete(key);
}

/** How many reads are kept (tests and the bench). */
export function keptReads(): number {
  return entries.size;
}

/** Forgets every kept read and the configured lifetime (tests). */
export function resetReadCache(): void {
  entries.clear();
  ttlMs = undefined;
}
