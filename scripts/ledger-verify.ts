import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import {
  applyLedgerEvent,
  drawFault,
  LEDGER_EVENT_TYPES,
  type LedgerEntry,
  type LedgerEvent,
  type LedgerHeader,
  type LedgerState,
} from "../db/ledger-rule";

/**
 * The verifier of the public ledger (docs/ledger.md): reads a platform's day files from the site or
 * from a folder laid out as the URLs are ({slug}/{YYYY-MM-DD}.jsonl, {slug}/head.json), and checks
 * the chain of hashes, each day's start state against the previous day's events, and every draw
 * against the rule. Reports the first failure with its day, line and reason; never throws on a bad
 * file (a truncated, reordered or edited one is a failure like any other).
 */

export interface LedgerHeadFile {
  platform: string;
  first: string | null;
  day: string | null;
  sha256: string | null;
  open: string | null;
}

export interface LedgerSource {
  describe: string;
  platforms: () => Promise<string[]>;
  head: (slug: string) => Promise<LedgerHeadFile | null>;
  /** The days to read, in order (from the head, or the folder's files). */
  days: (slug: string, head: LedgerHeadFile | null) => Promise<string[]>;
  read: (slug: string, day: string) => Promise<string | null>;
}

export interface Failure {
  platform: string;
  day: string | null;
  line: number | null;
  reason: string;
}

export interface PlatformReport {
  platform: string;
  days: number;
  first: string | null;
  last: string | null;
  events: number;
  draws: number;
  head: string | null;
}

export type VerifyResult = { ok: true; reports: PlatformReport[] } | { ok: false; reports: PlatformReport[]; failure: Failure };

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString().slice(0, 10);
}

export function folderSource(root: string): LedgerSource {
  return {
    describe: `folder ${root}`,
    platforms: async () => {
      const entries = await fs.readdir(root, { withFileTypes: true });
      return entries
        .filter((e) => e.isDirectory())
        .map((e) => e.name)
        .sort();
    },
    head: async (slug) => {
      try {
        return JSON.parse(await fs.readFile(path.join(root, slug, "head.json"), "utf8")) as LedgerHeadFile;
      } catch {
        return null;
      }
    },
    days: async (slug) => {
      const names = await fs.readdir(path.join(root, slug)).catch(() => [] as string[]);
      return names
        .filter((n) => n.endsWith(".jsonl") && DAY.test(n.slice(0, -6)))
        .map((n) => n.slice(0, -6))
        .sort();
    },
    read: async (slug, day) => fs.readFile(path.join(root, slug, `${day}.jsonl`), "utf8").catch(() => null),
  };
}

export function siteSource(site: string): LedgerSource {
  const base = site.replace(/\/+$/, "");
  const get = async (url: string) => {
    const response = await fetch(url);
    if (response.status === 404) return null;
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    return response.text();
  };
  return {
    describe: base,
    platforms: async () => {
      const body = await get(`${base}/api/platforms.json`);
      const data = body ? (JSON.parse(body) as { platforms?: Array<{ slug: string }> }) : {};
      return (data.platforms ?? []).map((p) => p.slug).sort();
    },
    head: async (slug) => {
      const body = await get(`${base}/fairness/ledger/${encodeURIComponent(slug)}/head.json`);
      return body ? (JSON.parse(body) as LedgerHeadFile) : null;
    },
    days: async (_slug, head) => {
      const days: string[] = [];
      if (!head?.first || !head.open || !DAY.test(head.first) || !DAY.test(head.open)) return days;
      for (let d = head.first; d <= head.open && days.length < 100_000; d = nextDay(d)) days.push(d);
      return days;
    },
    read: (slug, day) => get(`${base}/fairness/ledger/${encodeURIComponent(slug)}/${day}.jsonl`),
  };
}

function isEntry(value: unknown): value is LedgerEntry {
  const e = value as LedgerEntry;
  return (
    typeof e === "object" &&
    e !== null &&
    typeof e.handle === "string" &&
    Number.isInteger(e.count) &&
    (e.last === null || typeof e.last === "string") &&
    typeof e.active === "boolean" &&
    (e.expires === null || typeof e.expires === "string") &&
    (e.capped === null || typeof e.capped === "string")
  );
}

function isHeader(value: unknown): value is LedgerHeader {
  const h = value as LedgerHeader;
  return (
    typeof h === "object" &&
    h !== null &&
    typeof h.platform === "string" &&
    typeof h.day === "string" &&
    (h.previous === null || typeof h.previous === "string") &&
    Array.isArray(h.state) &&
    h.state.every(isEntry)
  );
}

function isEvent(value: unknown): value is LedgerEvent {
  const e = value as LedgerEvent;
  return (
    typeof e === "object" &&
    e !== null &&
    (LEDGER_EVENT_TYPES as readonly string[]).includes(e.type) &&
    typeof e.at === "string" &&
    typeof e.handle === "string" &&
    Number.isInteger(e.count) &&
    typeof e.active === "boolean" &&
    (e.expires === null || typeof e.expires === "string") &&
    (e.capped === null || typeof e.capped === "string")
  );
}

function parse(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

const canonical = (entry: LedgerEntry) =>
  JSON.stringify([entry.handle, entry.count, entry.last, entry.active, entry.expires, entry.capped]);

/** The first handle on which two states differ, or null when they are the same. */
function stateDifference(expected: LedgerState, header: LedgerEntry[]): string | null {
  const seen = new Set<string>();
  for (const entry of header) {
    if (seen.has(entry.handle)) return `${entry.handle} is listed twice`;
    seen.add(entry.handle);
    const want = expected.get(entry.handle);
    if (!want) return `${entry.handle} is not in the state the previous day's events lead to`;
    if (canonical(want) !== canonical(entry))
      return `${entry.handle} is ${canonical(entry)}, the previous day's events lead to ${canonical(want)}`;
  }
  for (const handle of expected.keys()) if (!seen.has(handle)) return `${handle} is missing`;
  return null;
}

interface DayOutcome {
  sha256: string;
  state: LedgerState;
  events: number;
  draws: number;
}

type Fault = { line: number; reason: string };

/** Checks one day's file against what came before it; returns its hash and end state, or the fault. */
export function verifyDay(
  slug: string,
  day: string,
  text: string,
  before: { sha256: string; state: LedgerState } | null,
  first: boolean,
): DayOutcome | Fault {
  if (text.length === 0) return { line: 1, reason: "the file is empty" };
  const lines = text.split("\n");
  const complete = lines.pop() === "";
  const header = parse(lines[0] ?? "");
  if (!isHeader(header)) return { line: 1, reason: "the header is not a valid header line (truncated or edited)" };
  if (header.platform !== slug) return { line: 1, reason: `the header names platform ${header.platform}, not ${slug}` };
  if (header.day !== day) return { line: 1, reason: `the header names day ${header.day}, not ${day}` };
  if (before) {
    if (header.previous !== before.sha256) {
      return { line: 1, reason: `previous is ${header.previous}, but the previous day's file has SHA-256 ${before.sha256}` };
    }
    const difference = stateDifference(before.state, header.state);
    if (difference)
      return { line: 1, reason: `the state at the day's start is not what the previous day's events lead to: ${difference}` };
  } else if (first && header.previous !== null) {
    return { line: 1, reason: "the platform's first day names a previous day" };
  } else if (first && header.state.length > 0) {
    return { line: 1, reason: "the platform's first day starts with codes no event added" };
  }
  const state: LedgerState = new Map(header.state.map((e) => [e.handle, e]));
  let lastAt = "";
  let draws = 0;
  for (let i = 1; i < lines.length; i++) {
    const line = i + 1;
    const event = parse(lines[i]!);
    if (!isEvent(event)) return { line, reason: "not a valid event line (truncated or edited)" };
    if (event.at.slice(0, 10) !== day) return { line, reason: `the event's time ${event.at} is not on ${day}` };
    if (event.at < lastAt)
      return { line, reason: `the event's time ${event.at} is before the previous line's ${lastAt}: lines out of order` };
    lastAt = event.at;
    if (event.type === "draw") {
      const fault = drawFault(state, event);
      if (fault) return { line, reason: fault };
      draws++;
    } else if (event.type === "added") {
      if (state.has(event.handle)) return { line, reason: `${event.handle} is added but already in the state` };
    } else if (!state.has(event.handle)) {
      return { line, reason: `${event.type} of ${event.handle}, which is not in the state` };
    }
    applyLedgerEvent(state, event);
  }
  if (!complete) return { line: lines.length + 1, reason: "the file ends in the middle of a line (truncated)" };
  return { sha256: crypto.createHash("sha256").update(text).digest("hex"), state, events: lines.length - 1, draws };
}

/** Verifies every platform (or one) of a source, from its first day (or `from`). */
export async function verifyLedger(
  source: LedgerSource,
  options: { platform?: string; from?: string } = {},
): Promise<VerifyResult> {
  const reports: PlatformReport[] = [];
  const platforms = options.platform ? [options.platform] : await source.platforms();
  for (const slug of platforms) {
    const fail = (day: string | null, line: number | null, reason: string): VerifyResult => ({
      ok: false,
      reports,
      failure: { platform: slug, day, line, reason },
    });
    let head: LedgerHeadFile | null;
    try {
      head = await source.head(slug);
    } catch (error) {
      return fail(null, null, `head.json could not be read: ${(error as Error).message}`);
    }
    let days: string[];
    try {
      days = await source.days(slug, head);
    } catch (error) {
      return fail(null, null, `the days could not be listed: ${(error as Error).message}`);
    }
    if (options.from) days = days.filter((d) => d >= options.from!);
    if (days.length === 0) {
      if (options.platform) return fail(null, null, "no day file found");
      continue;
    }
    const report: PlatformReport = { platform: slug, days: 0, first: days[0]!, last: null, events: 0, draws: 0, head: null };
    reports.push(report);
    let before: { sha256: string; state: LedgerState } | null = null;
    const hashes = new Map<string, string>();
    for (const [i, day] of days.entries()) {
      if (i > 0 && day !== nextDay(days[i - 1]!)) return fail(nextDay(days[i - 1]!), null, "the day's file is missing");
      let text: string | null;
      try {
        text = await source.read(slug, day);
      } catch (error) {
        return fail(day, null, `the file could not be read: ${(error as Error).message}`);
      }
      if (text === null) return fail(day, null, "the day's file is missing");
      const isFirst = i === 0 && !options.from;
      const outcome = verifyDay(slug, day, text, before, isFirst || (i === 0 && head?.first === day));
      if ("reason" in outcome) return fail(day, outcome.line, outcome.reason);
      hashes.set(day, outcome.sha256);
      before = { sha256: outcome.sha256, state: outcome.state };
      report.days++;
      report.last = day;
      report.events += outcome.events;
      report.draws += outcome.draws;
    }
    if (head?.day) {
      const sha = hashes.get(head.day);
      if (sha !== undefined && sha !== head.sha256) {
        return fail(head.day, null, `head.json gives SHA-256 ${head.sha256}, the day's file has ${sha}`);
      }
      if (sha !== undefined) report.head = `${head.day} ${sha}`;
    }
  }
  return { ok: true, reports };
}

export function describeFailure(failure: Failure): string {
  const where = [failure.platform, failure.day ?? "", failure.line === null ? "" : `line ${failure.line}`]
    .filter(Boolean)
    .join(" ");
  return `FAILED ${where}: ${failure.reason}`;
}
