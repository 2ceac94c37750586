import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_SCORE, spawnTimes } from "~/features/game/rules";
import { createGameSession } from "~/features/game/session.server";
import { onPostgres } from "../support/db";
import { openRawDb, type RawDb } from "../support/fixtures";
import { postForm, startServer, type RunningServer } from "../support/server";

let server: RunningServer;
let raw: RawDb;
let addressCounter = 0;
const DAY = 86_400_000;

// The server signs sessions with the same secret as this process, so a test can hold a session that
// started 61 s ago (or 6 min ago) without waiting; the signing code is the server's own.
beforeAll(async () => {
  server = await startServer({ TRUST_PROXY: "1", SESSION_SECRET: process.env.SESSION_SECRET! });
  raw = openRawDb(server.dbFile);
  // Leaderboard fixtures, written before any read (the board is cached for a few seconds).
  const insert = (...values: unknown[]) =>
    raw.run("insert into game_scores (player_name, score, device_type, created_at) values (?, ?, ?, ?)", ...values);
  const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();
  await insert("Ancien", 1850, "mobile", ago(31)); // best ever, but outside the 30 days
  await insert("Bureau", 1800, "desktop", ago(1)); // other device
  await insert("Limite", 1700, "mobile", ago(29.9));
  for (let i = 0; i < 11; i++) await insert(`Joueur ${i}`, 100 + i * 10, "mobile", ago(2));
});
afterAll(async () => {
  await raw?.close();
  await server?.stop();
});

const newAddress = () => `198.51.100.${++addressCounter}`;
const count = async (table: string) => (await raw.get<{ n: number }>(`select cast(count(*) as integer) as n from ${table}`))!.n;
const countScores = () => count("game_scores");
const countSpent = () => count("game_sessions_used");

function post(path: string, fields: Record<string, string>, address = newAddress()) {
  return postForm(`${server.url}${path}`, fields, { headers: { "X-Forwarded-For": address, "Accept-Language": "en" } });
}

const oldSession = (device: "mobile" | "desktop" = "mobile", ageMs = 61_000) => createGameSession(device, Date.now() - ageMs);

/** Collection times a real game could produce: the first `n` orbs, each taken as it appears. */
function plausibleTimes(n: number): number[] {
  const times: number[] = [];
  while (times.length < n) {
    const spawns = spawnTimes(times);
    times.push(spawns[times.length]!);
  }
  return times;
}

async function expectRefused(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  const body = (await res.json()) as { error: string; code: string };
  expect(body.code).toBe(code);
  expect(body.error.length).toBeGreaterThan(5);
}

describe("POST /game/start", () => {
  it("answers a signed session token for a device type", async () => {
    const res = await post("/game/start", { device_type: "desktop" });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = (await res.json()) as { token: string };
    expect(body.token).toMatch(/^[\w-]{16}\.desktop\.\d{13}\.[\w-]{43}$/);
  });

  it("refuses an unknown device, a JSON body, a GET", async () => {
    await expectRefused(await post("/game/start", { device_type: "tablet" }), 400, "device");
    const json = await fetch(`${server.url}/game/start`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Forwarded-For": newAddress() },
      body: JSON.stringify({ device_type: "mobile" }),
    });
    await expectRefused(json, 415, "bodyType");
    const get = await fetch(`${server.url}/game/start`);
    await expectRefused(get, 405, "method");
    expect(get.headers.get("allow")).toBe("POST");
  });
});

describe("POST /game/scores", () => {
  const valid = (overrides: Record<string, string> = {}) => ({
    token: oldSession(),
    player_name: "Alice",
    score: "30",
    device_type: "mobile",
    collected_at: plausibleTimes(3).join(","),
    ...overrides,
  });

  it("stores a valid score once, tells its rank, and refuses the replay", async () => {
    const before = await countScores();
    const fields = valid({ player_name: "  Zoé <b>x</b>  ", score: "1000", collected_at: plausibleTimes(100).join(",") });
    const res = await post("/game/scores", fields);
    expect(res.status).toBe(201);
    const body = (await res.json()) as { ok: boolean; rank: number };
    expect(body).toEqual({ ok: true, rank: 2 }); // behind Limite (1700); Ancien is older than 30 days
    expect(await countScores()).toBe(before + 1);
    const row = await raw.get("select player_name, score, device_type from game_scores order by id desc limit 1");
    expect(row).toEqual({ player_name: "Zoé <b>x</b>", score: 1000, device_type: "mobile" });

    const spent = await countSpent();
    await expectRefused(await post("/game/scores", { ...fields, player_name: "Mallory" }), 409, "replay");
    expect(await countScores()).toBe(before + 1);
    expect(await countSpent()).toBe(spent);
  });

  it("accepts a zero score with no collection, refuses any score without its collection times (issue 56)", async () => {
    const before = await countScores();
    const res = await post("/game/scores", valid({ score: "0", collected_at: "", player_name: "Zéro" }));
    expect(res.status).toBe(201);
    const withoutField = valid({ score: "50" });
    delete (withoutField as Record<string, string>).collected_at;
    await expectRefused(await post("/game/scores", withoutField), 400, "collectedAt");
    await expectRefused(await post("/game/scores", valid({ score: "50", collected_at: "" })), 400, "collectedAt");
    expect(await countScores()).toBe(before + 1);
  });

  const refusals: Array<[string, () => Record<string, string>, number, string]> = [
    ["no session", () => valid({ token: "" }), 400, "session"],
    ["a forged signature", () => valid({ token: oldSession().replace(/.{4}$/, "AAAA") }), 400, "session"],
    [
      "a session moved back in time",
      () => valid({ token: oldSession().replace(/\.(\d{13})\./, (_, t: string) => `.${Number(t) - 60_000}.`) }),
      400,
      "session",
    ],
    ["a session of the other device", () => valid({ token: oldSession("desktop") }), 400, "deviceMismatch"],
    ["a game not over yet (session 59 s old)", () => valid({ token: oldSession("mobile", 59_000) }), 400, "tooEarly"],
    ["a session too old (6 min)", () => valid({ token: oldSession("mobile", 6 * 60_000) }), 400, "expired"],
    ["a score not a multiple of 10", () => valid({ score: "35", collected_at: "" }), 400, "score"],
    ["a score above the bound", () => valid({ score: String(MAX_SCORE + 10), collected_at: "" }), 400, "score"],
    ["a negative score", () => valid({ score: "-10", collected_at: "" }), 400, "score"],
    ["an empty pseudo", () => valid({ player_name: "   " }), 400, "pseudoRequired"],
    ["a pseudo of 21 characters", () => valid({ player_name: "x".repeat(21) }), 400, "pseudoTooLong"],
    ["a pseudo with control characters", () => valid({ player_name: "bad\u0007name" }), 400, "pseudoInvalid"],
    ["an unknown device", () => valid({ device_type: "tv" }), 400, "device"],
    ["collection times that do not add up to the score", () => valid({ score: "40" }), 400, "collectedAt"],
    ["collections before their orbs exist", () => valid({ collected_at: "0,1,2" }), 400, "collectedAt"],
    ["malformed collection times", () => valid({ collected_at: "0,abc" }), 400, "collectedAt"],
  ];
  for (const [name, fields, status, code] of refusals) {
    it(`refuses ${name} and writes nothing`, async () => {
      const [scores, spent] = [await countScores(), await countSpent()];
      await expectRefused(await post("/game/scores", fields()), status, code);
      expect([await countScores(), await countSpent()]).toEqual([scores, spent]);
    });
  }

  it("refuses any body but form fields, and GET, writing nothing", async () => {
    const before = await countScores();
    const json = await fetch(`${server.url}/game/scores`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Forwarded-For": newAddress() },
      body: JSON.stringify(valid()),
    });
    await expectRefused(json, 415, "bodyType");
    const multipart = new FormData();
    for (const [k, v] of Object.entries(valid())) multipart.set(k, v);
    await expectRefused(
      await fetch(`${server.url}/game/scores`, { method: "POST", headers: { "X-Forwarded-For": newAddress() }, body: multipart }),
      415,
      "bodyType",
    );
    await expectRefused(await fetch(`${server.url}/game/scores`), 405, "method");
    expect(await countScores()).toBe(before);
  });

  it("a refused score leaves its session usable (the player fixes the pseudo and retries)", async () => {
    const token = oldSession();
    const address = newAddress();
    await expectRefused(await post("/game/scores", valid({ token, player_name: "" }), address), 400, "pseudoRequired");
    expect((await post("/game/scores", valid({ token, player_name: "Retry" }), address)).status).toBe(201);
  });

  it("limits attempts per address", async () => {
    const address = newAddress();
    const before = await countScores();
    for (let i = 0; i < 10; i++) expect((await post("/game/scores", valid({ score: "35" }), address)).status).toBe(400);
    const res = await post("/game/scores", valid(), address);
    await expectRefused(res, 429, "rateLimited");
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await countScores()).toBe(before);
    // Another address is not affected.
    expect((await post("/game/scores", valid())).status).toBe(201);
  });

  it("answers in the visitor's language", async () => {
    const res = await postForm(`${server.url}/game/scores`, valid({ player_name: " " }), {
      headers: { "X-Forwarded-For": newAddress(), Cookie: "language=fr" },
    });
    expect(((await res.json()) as { error: string }).error).toBe("Veuillez entrer votre pseudo");
  });
});

describe("GET /game/leaderboard", () => {
  type Row = { player_name: string; score: number; created_at: string };
  const board = async (device: string) => {
    const res = await fetch(`${server.url}/game/leaderboard?device=${device}`);
    return { res, rows: res.status === 200 ? ((await res.json()) as Row[]) : [] };
  };

  it("the top 10 of the last 30 days for one device, best first", async () => {
    const { res, rows } = await board("mobile");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toMatch(/max-age=\d+/);
    expect(rows).toHaveLength(10);
    expect(rows.map((r) => r.player_name)).not.toContain("Ancien"); // 31 days old
    expect(rows.map((r) => r.player_name)).not.toContain("Bureau"); // desktop
    expect(rows[0]!.player_name).toBe("Limite");
    expect(rows.map((r) => r.score)).toEqual([...rows.map((r) => r.score)].sort((a, b) => b - a));
    expect(Object.keys(rows[0]!).sort()).toEqual(["created_at", "player_name", "score"]);
    const desktop = await board("desktop");
    expect(desktop.rows.map((r) => r.player_name)).toEqual(["Bureau"]);
  });

  it("a saved score shows at once", async () => {
    const res = await post("/game/scores", {
      token: oldSession("desktop"),
      player_name: "Nouveau",
      score: "1810",
      device_type: "desktop",
      collected_at: plausibleTimes(181).join(","),
    });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { rank: number }).rank).toBe(1);
    expect((await board("desktop")).rows.map((r) => r.player_name)).toEqual(["Nouveau", "Bureau"]);
  });

  it("refuses an unknown device", async () => {
    await expectRefused(await fetch(`${server.url}/game/leaderboard?device=tv`), 400, "device");
    await expectRefused(await fetch(`${server.url}/game/leaderboard`), 400, "device");
  });

  // The plan's wording is SQLite's; PostgreSQL picks its plan from table statistics.
  it.skipIf(onPostgres)("the leaderboard query is answered from its index", async () => {
    const plan = await raw.all<{ detail: string }>(
      "explain query plan select player_name, score, created_at from game_scores where device_type = ? and created_at >= ? order by score desc, created_at asc limit 10",
      "mobile",
      new Date().toISOString(),
    );
    expect(plan.map((p) => p.detail).join(" | ")).toMatch(/COVERING INDEX game_scores_leaderboard_idx/);
  });
});
