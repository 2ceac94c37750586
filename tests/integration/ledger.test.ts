import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import v8 from "node:v8";
import vm from "node:vm";
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { deleteOwnCode, pauseOwnCode, resumeOwnCode } from "~db/repositories/code-owners.server";
import { recordCodeReport } from "~db/repositories/code-reports.server";
import { setCodeActive, setCodeExpiry, setCodePermanent, submitReferralCode, updateCode } from "~db/repositories/codes.server";
import { drawReferralCode } from "~db/repositories/draw.server";
import { codeKey } from "~db/repositories/rotation.server";
import { getEnv } from "~/utils/env.server";
import { ledgerDayFile, ledgerHandle, ledgerHead } from "~db/repositories/ledger.server";
import { applyLedgerEvent, inRotation, type LedgerEvent, type LedgerHeader, type LedgerState } from "~db/ledger-rule";
import { folderSource, siteSource, verifyLedger, type VerifyResult } from "../../scripts/ledger-verify";
import { onPostgres, useFreshDatabase, type DB } from "../support/db";
import { createCode, createPlatform } from "../support/fixtures";
import { ROOT, tmpPath } from "../support/paths";
import { postForm, startServer, type RunningServer } from "../support/server";

/**
 * The public ledger (issue 61, docs/ledger.md): written by the database's triggers in the
 * transaction of each change, published per platform and UTC day, checked by the verifier. The
 * clock is injected (every repository function takes `now`); the days are in the future, so that
 * the database's own clock (which stamps the changes no draw makes) never runs ahead of them.
 */
const SECRET = "ledger-test-secret";
let db: DB;
let file: string;
let servers: RunningServer[] = [];
beforeEach(async () => {
  ({ db, file } = await useFreshDatabase());
});
afterEach(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  servers = [];
});

const DAYS = ["2031-03-30", "2031-03-31", "2031-04-01", "2031-04-02"] as const;
const at = (day: string, hour: number, minute = 0) =>
  new Date(`${day}T${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}:00.000Z`);

/** Every file of a platform, as the URLs lay them out, written under `dir/{slug}/`. */
async function exportLedger(dir: string, slug: string): Promise<void> {
  fs.mkdirSync(path.join(dir, slug), { recursive: true });
  const head = (await ledgerHead(SECRET, slug))!;
  fs.writeFileSync(path.join(dir, slug, "head.json"), JSON.stringify(head));
  for (let d = head.first!; d <= head.open!; d = new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)) {
    const day = (await ledgerDayFile(SECRET, slug, d))!;
    let text = "";
    for await (const line of day.lines()) text += line;
    fs.writeFileSync(path.join(dir, slug, `${d}.jsonl`), text);
  }
}

const sha256 = (text: string) => crypto.createHash("sha256").update(text).digest("hex");
const readDay = (dir: string, slug: string, day: string) => fs.readFileSync(path.join(dir, slug, `${day}.jsonl`), "utf8");
const writeDay = (dir: string, slug: string, day: string, text: string) =>
  fs.writeFileSync(path.join(dir, slug, `${day}.jsonl`), text);

function copyOf(dir: string): string {
  const copy = tmpPath("ledger-copy");
  fs.cpSync(dir, copy, { recursive: true });
  return copy;
}

function failureOf(result: VerifyResult) {
  expect(result.ok).toBe(false);
  return (result as Extract<VerifyResult, { ok: false }>).failure;
}

/**
 * Four days on one platform: submits, draws, an owner's pause and resume, a monthly cap from three
 * answers that ends with the month, an expiry that passes, the admin's edits, a deletion.
 */
async function fourDays(): Promise<{ slug: string; draws: number; codes: Record<string, number> }> {
  const p = await createPlatform(db);
  const codes: Record<string, number> = {};
  let draws = 0;
  const draw = async (when: Date) => {
    const drawn = await drawReferralCode(p.id, when);
    expect(drawn).not.toBeNull();
    draws++;
    return drawn!;
  };
  const submit = async (name: string, when: Date) => {
    const outcome = await submitReferralCode({ platformId: p.id, code: name, referralUrl: null }, when);
    expect(outcome.ok).toBe(true);
    codes[name] = (outcome as { id: number }).id;
  };
  // Day 1: four codes, draws, a pause.
  for (const [i, name] of ["ALPHA1", "BRAVO2", "CHARLY3", "DELTA4"].entries()) await submit(name, at(DAYS[0], 8, i));
  for (let i = 0; i < 9; i++) await draw(at(DAYS[0], 9, i));
  await pauseOwnCode(codes.BRAVO2!, at(DAYS[0], 10));
  for (let i = 0; i < 6; i++) await draw(at(DAYS[0], 11, i));
  // Day 2: resumed at the level; ECHO5 capped by three answers until 1 April; admin edits.
  await resumeOwnCode(codes.BRAVO2!, at(DAYS[1], 8));
  await submit("ECHO5", at(DAYS[1], 8, 30));
  for (let i = 0; i < 5; i++) await draw(at(DAYS[1], 9, i));
  // Three draws of ECHO5, each answered "limit reached" from its own address (one answer per draw).
  const echoes = [];
  for (let i = 0; echoes.length < 3 && i < 30; i++) {
    const drawn = await draw(at(DAYS[1], 10, i));
    if (drawn.codeId === codes.ECHO5) echoes.push(drawn);
  }
  expect(echoes).toHaveLength(3);
  for (const [i, echo] of echoes.entries()) {
    await recordCodeReport(
      { requestId: echo.requestId, platformId: p.id, outcome: "failed", reason: "limit-reached", ipHash: `ip-${i}` },
      at(DAYS[1], 11, i),
    );
  }
  expect(
    (await db.selectFrom("referral_codes").select("capped_until").where("id", "=", codes.ECHO5!).executeTakeFirstOrThrow())
      .capped_until,
  ).toBe("2031-04-01T00:00:00.000Z");
  await setCodeExpiry(codes.CHARLY3!, 1, at(DAYS[1], 12)); // expires on day 3 at noon
  await setCodePermanent(codes.DELTA4!, true, at(DAYS[1], 12, 5));
  await updateCode(codes.DELTA4!, {
    code: "DELTA4X",
    referralUrl: null,
    codeKey: codeKey(getEnv().SESSION_SECRET, p.id, "DELTA4X"),
  });
  await setCodeActive(codes.ALPHA1!, false, at(DAYS[1], 13));
  for (let i = 0; i < 7; i++) await draw(at(DAYS[1], 14, i));
  await setCodeActive(codes.ALPHA1!, true, at(DAYS[1], 15));
  for (let i = 0; i < 4; i++) await draw(at(DAYS[1], 16, i));
  // Day 3: the cap ends with the month (the first draw lifts it), CHARLY3 expires at noon.
  for (let i = 0; i < 8; i++) await draw(at(DAYS[2], 9, i));
  for (let i = 0; i < 8; i++) await draw(at(DAYS[2], 13, i));
  // Day 4: a deletion, a new code, draws.
  await deleteOwnCode(codes.BRAVO2!);
  await submit("FOXTROT6", at(DAYS[3], 9));
  for (let i = 0; i < 10; i++) await draw(at(DAYS[3], 10, i));
  return { slug: p.slug, draws, codes };
}

describe("the public ledger", () => {
  it("records four days of draws and eligibility changes; days close into the chain; the verifier replays them", async () => {
    const { slug, draws, codes } = await fourDays();
    const dir = tmpPath("ledger");
    await exportLedger(dir, slug);

    // Every day has a file; a closed day's hash is in the next day's header and in head.json.
    const files = DAYS.map((d) => readDay(dir, slug, d));
    const headers = files.map((text) => JSON.parse(text.slice(0, text.indexOf("\n"))) as LedgerHeader);
    expect(headers.map((h) => h.day)).toEqual([...DAYS]);
    expect(headers[0]!.previous).toBeNull();
    for (let i = 1; i < DAYS.length; i++) expect(headers[i]!.previous).toBe(sha256(files[i - 1]!));
    const head = JSON.parse(fs.readFileSync(path.join(dir, slug, "head.json"), "utf8"));
    expect(head).toMatchObject({ platform: slug, first: DAYS[0], day: DAYS[2], sha256: sha256(files[2]!), open: DAYS[3] });

    // Each kind of change is there, under handles only: no code, no id.
    const events = files.flatMap((text) =>
      text
        .trim()
        .split("\n")
        .slice(1)
        .map((l) => JSON.parse(l) as LedgerEvent),
    );
    expect(new Set(events.map((e) => e.type))).toEqual(
      new Set(["added", "level", "draw", "paused", "resumed", "capped", "cap-ended", "expiry", "deleted"]),
    );
    expect(events.filter((e) => e.type === "draw")).toHaveLength(draws);
    const all = files.join("");
    for (const name of ["ALPHA1", "BRAVO2", "DELTA4X", "ECHO5"]) expect(all).not.toContain(name);
    expect(all).toContain(`"handle":"${ledgerHandle(SECRET, codes.ECHO5!)}"`);
    // ECHO5's cap is in the ledger as its end date; the first draw of 1 April lifted it, in the draw's
    // own transaction, just before it picked. (Changes no draw makes carry the database's clock, never
    // earlier than the platform's last event: with the clock injected here, the lift is stamped with
    // the last event's time, 31 March.)
    const echoHandle = ledgerHandle(SECRET, codes.ECHO5!);
    const capped = events.findIndex((e) => e.type === "capped" && e.handle === echoHandle);
    expect(events[capped]).toMatchObject({ capped: "2031-04-01T00:00:00.000Z" });
    const lifted = events.findIndex((e) => e.type === "cap-ended" && e.handle === echoHandle);
    const firstOfApril = events.findIndex((e) => e.type === "draw" && e.at >= "2031-04-01");
    expect(lifted).toBe(firstOfApril - 1);
    expect(events.slice(capped, lifted).some((e) => e.type === "draw" && e.handle === echoHandle)).toBe(false);

    const result = await verifyLedger(folderSource(dir));
    expect(result).toMatchObject({
      ok: true,
      reports: [{ platform: slug, days: 4, draws, head: `${DAYS[2]} ${sha256(files[2]!)}` }],
    });

    // A closed day, read again, is the same file (kept, not recomputed from rows that could move).
    const again = (await ledgerDayFile(SECRET, slug, DAYS[1]))!;
    let text = "";
    for await (const line of again.lines()) text += line;
    expect(text).toBe(files[1]);
    expect(again.closed).toBe(true);
  });

  it("fails naming the line: a draw swapped for a code that was not least served, a removed line, an edited header, a truncated file", async () => {
    const { slug } = await fourDays();
    const dir = tmpPath("ledger");
    await exportLedger(dir, slug);

    // 1. One draw's handle swapped for a code in the rotation with more turns.
    const swapped = copyOf(dir);
    const day = DAYS[1];
    const lines = readDay(swapped, slug, day).split("\n");
    const header = JSON.parse(lines[0]!) as LedgerHeader;
    const state: LedgerState = new Map(header.state.map((e) => [e.handle, e]));
    let target = -1;
    for (let i = 1; i < lines.length - 1 && target < 0; i++) {
      const event = JSON.parse(lines[i]!) as LedgerEvent;
      if (event.type === "draw") {
        const drawn = state.get(event.handle)!;
        const above = [...state.values()].find(
          (e) => e.handle !== event.handle && inRotation(e, event.at) && e.count > drawn.count,
        );
        if (above) {
          lines[i] = JSON.stringify({ ...event, handle: above.handle, count: above.count + 1 });
          target = i + 1;
          break;
        }
      }
      applyLedgerEvent(state, event);
    }
    expect(target).toBeGreaterThan(1);
    writeDay(swapped, slug, day, lines.join("\n"));
    expect(failureOf(await verifyLedger(folderSource(swapped)))).toMatchObject({
      platform: slug,
      day,
      line: target,
      reason: expect.stringContaining("not the least served"),
    });

    // 2. One draw line removed from a closed day.
    const removed = copyOf(dir);
    const dayLines = readDay(removed, slug, DAYS[2]).split("\n");
    const drawAt = dayLines.findIndex((l, i) => i > 3 && l.includes('"draw"'));
    dayLines.splice(drawAt, 1);
    writeDay(removed, slug, DAYS[2], dayLines.join("\n"));
    const removedFailure = failureOf(await verifyLedger(folderSource(removed)));
    expect(removedFailure).toMatchObject({ day: DAYS[2] });
    expect(removedFailure.line).toBeGreaterThanOrEqual(drawAt + 1);

    // 3. An edited header: one code's turns lowered at the day's start.
    const edited = copyOf(dir);
    const text = readDay(edited, slug, DAYS[3]);
    const newline = text.indexOf("\n");
    const h = JSON.parse(text.slice(0, newline)) as LedgerHeader;
    h.state[0]!.count -= 1;
    writeDay(edited, slug, DAYS[3], JSON.stringify(h) + text.slice(newline));
    expect(failureOf(await verifyLedger(folderSource(edited)))).toMatchObject({
      day: DAYS[3],
      line: 1,
      reason: expect.stringContaining("previous day's events lead to"),
    });

    // 4. Truncated in the middle of a line, and two lines swapped: reported, never a crash.
    const truncated = copyOf(dir);
    const whole = readDay(truncated, slug, DAYS[0]);
    writeDay(truncated, slug, DAYS[0], whole.slice(0, whole.length - 20));
    expect(failureOf(await verifyLedger(folderSource(truncated)))).toMatchObject({
      day: DAYS[0],
      reason: expect.stringMatching(/truncated/),
    });
    const reordered = copyOf(dir);
    const order = readDay(reordered, slug, DAYS[0]).split("\n");
    const last = order.length - 2;
    [order[2], order[last]] = [order[last]!, order[2]!];
    writeDay(reordered, slug, DAYS[0], order.join("\n"));
    expect(failureOf(await verifyLedger(folderSource(reordered)))).toMatchObject({ day: DAYS[0], line: 3 });
  });

  it("a draw rolled back leaves no ledger line", async () => {
    const p = await createPlatform(db);
    await createCode(db, p.id, { code: "ROLLBACK1" });
    const count = async () =>
      Number(
        (
          await db
            .selectFrom("ledger_events")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    await expect(
      db.transaction().execute(async (trx) => {
        const drawn = await drawReferralCode(p.id, at(DAYS[0], 9), trx);
        expect(drawn).not.toBeNull();
        expect(await trx.selectFrom("ledger_events").select("id").where("type", "=", "draw").execute()).toHaveLength(1);
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await count()).toBe(before);
  });

  it("concurrent draws from three server processes replay exactly; the files are served over HTTP, 404 for the unknown", async () => {
    // As many at once as processes.test.ts sends: each holds a database connection while it waits its turn.
    const DRAWS = 48;
    const env = { DATABASE_FILE: file, SESSION_SECRET: SECRET };
    servers = await Promise.all([startServer(env), startServer(env), startServer(env)]);
    const p = await createPlatform(db);
    for (let i = 0; i < 6; i++) await createCode(db, p.id, { code: `MULTI${i}` });
    const answers = await Promise.all(
      Array.from({ length: DRAWS }, (_, i) => postForm(`${servers[i % 3]!.url}/${p.slug}/get-code`, { intent: "draw" })),
    );
    expect(answers.map((r) => r.status)).toEqual(Array.from({ length: DRAWS }, () => 303));
    const url = servers[0]!.url;
    const result = await verifyLedger(siteSource(url), { platform: p.slug });
    expect(result).toMatchObject({ ok: true, reports: [{ platform: p.slug, draws: DRAWS }] });

    const today = new Date().toISOString().slice(0, 10);
    const dayFile = await fetch(`${url}/fairness/ledger/${p.slug}/${today}.jsonl`);
    expect(dayFile.status).toBe(200);
    expect(dayFile.headers.get("content-type")).toContain("application/x-ndjson");
    expect(dayFile.headers.get("cache-control")).not.toContain("immutable");
    expect((await dayFile.text()).split("\n")).toHaveLength(1 + 6 + DRAWS + 1);
    const head = await (await fetch(`${url}/fairness/ledger/${p.slug}/head.json`)).json();
    expect(head).toMatchObject({ platform: p.slug, first: today, open: today, day: null });
    const tomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    for (const bad of [
      `/fairness/ledger/no-such-platform/${today}.jsonl`,
      `/fairness/ledger/no-such-platform/head.json`,
      `/fairness/ledger/${p.slug}/${tomorrow}.jsonl`,
      `/fairness/ledger/${p.slug}/2031-02-30.jsonl`,
      `/fairness/ledger/${p.slug}/2020-01-01.jsonl`,
      `/fairness/ledger/${p.slug}/today.jsonl`,
      `/fairness/ledger/${p.slug}/${today}.json`,
    ]) {
      expect((await fetch(`${url}${bad}`)).status, bad).toBe(404);
    }

    // The command anyone runs, against the site.
    const run = spawnSync(process.execPath, ["--import", "tsx", "scripts/fairness-verify.ts", url, "--platform", p.slug], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`${p.slug}: 1 day(s) ${today} to ${today}, ${6 + DRAWS} events, ${DRAWS} draws replayed`);
    expect(run.stdout).toContain("OK:");
    const bad = spawnSync(process.execPath, ["--import", "tsx", "scripts/fairness-verify.ts", "/no/such/folder"], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(bad.status).toBe(2);
  });

  it("the head hash is on /fairness/ledger (four languages), /fairness and the Atom feed; the owner's page shows the handle and the days served", async () => {
    const p = await createPlatform(db);
    const token = crypto.randomBytes(32).toString("base64url");
    const owned = await submitReferralCode(
      {
        platformId: p.id,
        code: "OWNED1",
        referralUrl: null,
        ownerTokenHash: crypto.createHash("sha256").update(token).digest("base64url"),
      },
      at(DAYS[0], 8),
    );
    await submitReferralCode({ platformId: p.id, code: "OTHER2", referralUrl: null }, at(DAYS[0], 8, 1));
    for (const [d, day] of DAYS.slice(0, 3).entries())
      for (let i = 0; i < 2 + d; i++) await drawReferralCode(p.id, at(day, 9, i));
    const server = await startServer({ DATABASE_FILE: file, SESSION_SECRET: SECRET });
    servers = [server];
    const head = (await ledgerHead(SECRET, p.slug))!;
    expect(head).toMatchObject({ day: DAYS[1], open: DAYS[2] });

    const headings: string[] = [];
    for (const lng of ["fr", "en", "de", "es"]) {
      const page = await fetch(`${server.url}/fairness/ledger?lng=${lng}`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain(`data-slug="${p.slug}"`);
      expect(html).toContain(head.sha256!);
      expect(html).toContain(`/fairness/ledger/${p.slug}/${DAYS[1]}.jsonl`);
      expect(html).not.toContain("OWNED1");
      headings.push(/<h1[^>]*>([^<]+)<\/h1>/.exec(html)![1]!);
    }
    expect(new Set(headings).size).toBe(4);

    const fairness = await (await fetch(`${server.url}/fairness?platform=${p.slug}&lng=en`)).text();
    expect(fairness).toContain('data-testid="fairness-ledger-link"');
    expect(fairness).toMatch(new RegExp(`data-testid="fairness-ledger-head"[^>]*>[^<]*${DAYS[1]}[^<]*${head.sha256}`));
    const feed = await (await fetch(`${server.url}/feeds/platforms.atom`)).text();
    expect(feed).toContain(head.sha256!);
    expect(feed).toContain(`/fairness/ledger/${p.slug}/${DAYS[1]}.jsonl`);

    const ownerPage = await (await fetch(`${server.url}/my-code/${token}?lng=en`)).text();
    const handle = ledgerHandle(SECRET, (owned as { id: number }).id);
    expect(ownerPage).toContain(`data-testid="owned-handle">${handle}<`);
    const served = [...ownerPage.matchAll(/href="\/fairness\/ledger\/[^/]+\/(\d{4}-\d{2}-\d{2})\.jsonl"/g)].map((m) => m[1]);
    const expected = [];
    for (const day of DAYS.slice(0, 3)) {
      const dayFile = (await ledgerDayFile(SECRET, p.slug, day))!;
      let text = "";
      for await (const line of dayFile.lines()) text += line;
      if (text.split("\n").some((l) => l.includes('"type":"draw"') && l.includes(handle))) expected.push(day);
    }
    expect(expected.length).toBeGreaterThan(0);
    expect(served).toEqual(expected.reverse());
  });

  it("a day of 50,000 draws streams from the server, read a page at a time", async () => {
    const p = await createPlatform(db);
    const code = await createCode(db, p.id, { code: "BUSY1" });
    // 50,000 draws logged on today's file (the trigger writes a ledger line for each).
    const draws = 50_000;
    if (onPostgres) {
      await sql`insert into random_requests (platform_id, served_code_id, served_code, created_at)
        select ${p.id}, ${code.id}, 'BUSY1', to_char(clock_timestamp() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
        from generate_series(1, ${draws})`.execute(db);
    } else {
      await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${draws})
        insert into random_requests (platform_id, served_code_id, served_code, created_at)
        select ${p.id}, ${code.id}, 'BUSY1', strftime('%Y-%m-%dT%H:%M:%fZ', 'now') from n`.execute(db);
    }
    const server = await startServer({ DATABASE_FILE: file, SESSION_SECRET: SECRET });
    servers = [server];
    const today = new Date().toISOString().slice(0, 10);
    // Over HTTP: the day arrives whole, in many chunks (sent as it is read, not built first).
    const response = await fetch(`${server.url}/fairness/ledger/${p.slug}/${today}.jsonl`);
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    let lines = 0;
    let bytes = 0;
    let chunks = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks++;
      bytes += value.length;
      for (const byte of value) if (byte === 10) lines++;
    }
    expect(lines).toBe(1 + 1 + draws);
    expect(bytes).toBeGreaterThan(draws * 100);
    expect(chunks).toBeGreaterThan(20);

    // What the reading holds: half-way through the day, after a full collection, the heap holds no
    // more than a page of rows (a day read whole would hold all 50,000 rows and lines, over 20 MB).
    v8.setFlagsFromString("--expose-gc");
    const gc = vm.runInNewContext("gc") as () => void;
    const day = (await ledgerDayFile(SECRET, p.slug, today))!;
    gc();
    const before = process.memoryUsage().heapUsed;
    let read = 0;
    let held = 0;
    for await (const line of day.lines()) {
      read += line.length;
      if (++lines === 1 + 1 + draws + 25_000) {
        gc();
        held = process.memoryUsage().heapUsed - before;
      }
    }
    expect(read).toBe(bytes);
    expect(held, `heap held half-way: ${held} bytes for a ${bytes}-byte day`).toBeLessThan(bytes / 4);
  });
});
