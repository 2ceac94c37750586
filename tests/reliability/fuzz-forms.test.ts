import crypto from "node:crypto";
import SQLite from "better-sqlite3";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { signInAsAdmin } from "../support/admin";
import type { RunningServer } from "../support/server";
import { FORMS, LIVE, type FormUnderTest } from "./forms";
import { openReadOnly, recordFigures, rowCountsOf, startReliabilityServer } from "./support";

/**
 * Every form, posted with generated values, encodings and headers. A form may accept or refuse
 * what it gets; it may never answer 5xx, and when it refuses (4xx) no row may have changed.
 * Public and admin forms go to two servers at once; on each, posts go one at a time, so a change
 * in the row counts belongs to the post just answered.
 */
const TOTAL_POSTS = Number(process.env.FUZZ_POSTS ?? 5_200);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2_147_483_647);

/** A server with its own database; public and admin forms are fuzzed at once, each on its own. */
interface Target {
  server: RunningServer;
  adminCookie: string;
  rowCounts: () => string;
  /** Real secrets the trust loop's forms take (LIVE in forms.ts). */
  drawTokens: string[];
  ownerTokens: string[];
  close: () => Promise<void>;
}

/** Codes with an owner's private link, written in the file before the fuzzing: their tokens. */
function seedOwnedCodes(file: string, count: number): string[] {
  const db = new SQLite(file);
  db.pragma("busy_timeout = 5000");
  try {
    const platforms = db.prepare("SELECT id FROM platforms ORDER BY id").all() as Array<{ id: number }>;
    const insert = db.prepare("INSERT INTO referral_codes (platform_id, code, owner_token_hash, created_at) VALUES (?, ?, ?, ?)");
    return Array.from({ length: count }, (_, i) => {
      const token = crypto.randomBytes(32).toString("base64url");
      const hash = crypto.createHash("sha256").update(token).digest("base64url");
      insert.run(platforms[i % platforms.length]!.id, `FUZZOWN${i}`, hash, new Date().toISOString());
      return token;
    });
  } finally {
    db.close();
  }
}

/** Real draws (platform pages and /random): the tokens their result addresses carry. */
async function drawTokensFrom(server: RunningServer, count: number): Promise<string[]> {
  const pages = ["/tesla/get-code", "/n26/get-code", "/holy/get-code", "/random"];
  const tokens: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${server.url}${pages[i % pages.length]}`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url, "Fly-Client-IP": `10.9.0.${i + 1}` },
      body: "intent=draw",
    });
    await res.arrayBuffer();
    const token = new URL(res.headers.get("location") ?? "/", server.url).searchParams.get("draw");
    if (token) tokens.push(token);
  }
  if (tokens.length === 0) throw new Error("no draw succeeded before the fuzzing");
  return tokens;
}

async function startTarget(): Promise<Target> {
  const server = await startReliabilityServer({ SEED_DEMO: "1" });
  const adminCookie = await signInAsAdmin(server);
  const ownerTokens = seedOwnedCodes(server.dbFile, 12);
  const drawTokens = await drawTokensFrom(server, 80);
  const db = openReadOnly(server.dbFile);
  return {
    server,
    adminCookie,
    // history_rollup holds the background jobs' marks, never a request's row: the retention job's
    // first run (a minute after start) writes its mark while the fuzzing goes on, under load.
    rowCounts: rowCountsOf(db, { except: ["history_rollup"] }),
    drawTokens,
    ownerTokens,
    close: async () => {
      db.close();
      await server.stop();
    },
  };
}

const figures = { posts: 0, answers5xx: 0, rejected: 0, rowsWrittenOnRejection: 0, liveAccepted: 0 };
const failures: string[] = [];
const outputs: string[] = [];
const started = Date.now();

afterAll(() => {
  recordFigures("1-fuzz", {
    "fuzz: form posts tried": figures.posts,
    "fuzz: answers 5xx": figures.answers5xx,
    "fuzz: posts refused (4xx)": figures.rejected,
    "fuzz: posts refused that wrote rows": figures.rowsWrittenOnRejection,
    "fuzz: real-token posts accepted": figures.liveAccepted,
    "fuzz: seconds": ((Date.now() - started) / 1000).toFixed(0),
    "fuzz: seed (FUZZ_SEED)": String(SEED),
  });
});

type Encoding = "urlencoded" | "multipart" | "json" | "text" | "none" | "broken-multipart";
type Provenance = "same-origin" | "no-origin" | "cross-site";

const encoding = fc.oneof(
  { weight: 10, arbitrary: fc.constant<Encoding>("urlencoded") },
  { weight: 3, arbitrary: fc.constant<Encoding>("multipart") },
  { weight: 1, arbitrary: fc.constantFrom<Encoding>("json", "text", "none", "broken-multipart") },
);
const provenance = fc.oneof(
  { weight: 12, arbitrary: fc.constant<Provenance>("same-origin") },
  { weight: 1, arbitrary: fc.constantFrom<Provenance>("no-origin", "cross-site") },
);
const slugOrToken = fc.oneof(fc.constantFrom("tesla", "n26", "holy", "no-such-thing", "1"), fc.string({ maxLength: 30 }));

function caseFor(form: FormUnderTest) {
  return fc.record({
    fields: fc.record(form.fields, { requiredKeys: [] }),
    extra: fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), fc.string({ maxLength: 40 }), { maxKeys: 2 }),
    encoding,
    provenance,
    singleFetch: fc.boolean().map((b) => b && form.method !== "GET"),
    address: fc.ipV4(),
    segment: /\{token\}/.test(form.path) ? fc.oneof(fc.constant<string>(LIVE.ownerToken), slugOrToken) : slugOrToken,
    /** Which real token a LIVE stand-in becomes. */
    pick: fc.nat(),
    language: fc.constantFrom("fr", "en", "de", "es"),
  });
}

type Case = ReturnType<typeof caseFor> extends fc.Arbitrary<infer C> ? C : never;

function requestFor(target: Target, form: FormUnderTest, c: Case): { url: string; init: RequestInit; live: boolean } {
  const { server, adminCookie } = target;
  let usedLive = false;
  const live = (value: string) => {
    if (value === LIVE.ownerToken || value === LIVE.drawToken) usedLive = true;
    return value === LIVE.ownerToken
      ? target.ownerTokens[c.pick % target.ownerTokens.length]!
      : value === LIVE.drawToken
        ? target.drawTokens[c.pick % target.drawTokens.length]!
        : value;
  };
  const path = form.path.replace(/\{(slug|token|id)\}/, encodeURIComponent(live(c.segment)));
  const values: Record<string, string> = { ...c.extra };
  for (const [name, value] of Object.entries(c.fields as Record<string, string>)) values[name] = live(value);
  const headers: Record<string, string> = { "Fly-Client-IP": c.address, "Accept-Language": c.language };
  if (form.admin) headers.Cookie = adminCookie;
  if (c.provenance === "same-origin") headers.Origin = server.url;
  if (c.provenance === "cross-site") headers["Sec-Fetch-Site"] = "cross-site";
  if (form.method === "GET") {
    return { url: `${server.url}${path}?${new URLSearchParams(values)}`, init: { headers }, live: usedLive };
  }
  const url = `${server.url}${path}${c.singleFetch ? ".data" : ""}`;
  let body: BodyInit | undefined;
  switch (c.encoding) {
    case "urlencoded":
      headers["Content-Type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(values).toString();
      break;
    case "multipart": {
      const form_ = new FormData();
      for (const [name, value] of Object.entries(values)) {
        if (form.files?.includes(name)) form_.set(name, new Blob([value], { type: "image/png" }), "upload.png");
        else form_.set(name, value);
      }
      body = form_;
      break;
    }
    case "json":
      headers["Content-Type"] = "application/json";
      body = JSON.stringify(values);
      break;
    case "text":
      headers["Content-Type"] = "text/plain";
      body = Object.entries(values)
        .map(([k, v]) => `${k}=${v}`)
        .join("\n");
      break;
    case "none":
      body = new URLSearchParams(values).toString();
      break;
    case "broken-multipart":
      headers["Content-Type"] = "multipart/form-data; boundary=fuzz";
      body = `--fuzz\r\nContent-Disposition: form-data; name="intent"\r\n\r\n${values.intent ?? ""}\r\n--fu`;
      break;
  }
  // "none": fetch would label a string body text/plain; a Blob without a type sends no Content-Type.
  if (c.encoding === "none") body = new Blob([body as string]);
  return { url, init: { method: "POST", headers, body, redirect: "manual" }, live: usedLive };
}

async function fuzzForm(target: Target, form: FormUnderTest, runs: number) {
  await fc.assert(
    fc.asyncProperty(caseFor(form), async (c) => {
      const before = target.rowCounts();
      const { url, init, live } = requestFor(target, form, c);
      const res = await fetch(url, init);
      await res.arrayBuffer();
      figures.posts++;
      if (live && res.status < 400) figures.liveAccepted++;
      const label = `${init.method ?? "GET"} ${url} ${c.encoding} ${c.provenance} → ${res.status}`;
      if (res.status >= 500) {
        figures.answers5xx++;
        failures.push(label);
      }
      if (res.status >= 400 && res.status < 500) {
        figures.rejected++;
        if (init.method === "POST" && target.rowCounts() !== before) {
          figures.rowsWrittenOnRejection++;
          failures.push(`${label}: rows changed`);
        }
      }
      expect(res.status, label).toBeLessThan(500);
    }),
    { numRuns: runs, seed: SEED, endOnFailure: true },
  );
}

const totalShare = FORMS.reduce((sum, form) => sum + (form.share ?? 1), 0);
const runsFor = (form: FormUnderTest) => Math.ceil((TOTAL_POSTS * (form.share ?? 1)) / totalShare);
const GROUPS = { public: FORMS.filter((form) => !form.admin), admin: FORMS.filter((form) => form.admin) };

describe.concurrent("fuzzing every form", () => {
  for (const [group, forms] of Object.entries(GROUPS)) {
    it(`${group} forms: ${forms.map((form) => `${form.path} ×${runsFor(form)}`).join(", ")}`, async () => {
      const target = await startTarget();
      try {
        for (const form of forms) await fuzzForm(target, form, runsFor(form));
      } finally {
        outputs.push(target.server.output());
        await target.close();
      }
    }, 900_000);
  }
});

describe("what the fuzzing found", () => {
  it("nothing was written for a refused post, nothing answered 5xx, and the log holds no stack trace", () => {
    expect(figures.posts).toBeGreaterThanOrEqual(TOTAL_POSTS);
    // The trust loop's forms were tried past their token check, not only refused at it.
    expect(figures.liveAccepted).toBeGreaterThan(0);
    expect(failures).toEqual([]);
    for (const output of outputs) expect(output).not.toMatch(/Unexpected Server Error|\n\s+at .+:\d+:\d+\)/);
  });
});
