import type SQLite from "better-sqlite3";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInAsAdmin } from "../support/admin";
import type { RunningServer } from "../support/server";
import { FORMS, type FormUnderTest } from "./forms";
import { openReadOnly, recordFigures, rowCountsOf, startReliabilityServer } from "./support";

/**
 * Every form, posted with generated values, encodings and headers. A form may accept or refuse
 * what it gets; it may never answer 5xx, and when it refuses (4xx) no row may have changed.
 * Posts go one at a time so a change in the row counts belongs to the post just answered.
 */
const TOTAL_POSTS = Number(process.env.FUZZ_POSTS ?? 5_200);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2_147_483_647);

let server: RunningServer;
let adminCookie: string;
let db: SQLite.Database;
let rowCounts: () => string;
const figures = { posts: 0, answers5xx: 0, rejected: 0, rowsWrittenOnRejection: 0 };
const failures: string[] = [];

beforeAll(async () => {
  server = await startReliabilityServer({ SEED_DEMO: "1" });
  adminCookie = await signInAsAdmin(server);
  db = openReadOnly(server.dbFile);
  rowCounts = rowCountsOf(db);
});

afterAll(async () => {
  db?.close();
  await server?.stop();
  recordFigures("1-fuzz", {
    "fuzz: form posts tried": figures.posts,
    "fuzz: answers 5xx": figures.answers5xx,
    "fuzz: posts refused (4xx)": figures.rejected,
    "fuzz: posts refused that wrote rows": figures.rowsWrittenOnRejection,
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
const slugOrToken = fc.oneof(fc.constantFrom("tesla", "n26", "holy", "no-such-thing"), fc.string({ maxLength: 30 }));

function caseFor(form: FormUnderTest) {
  return fc.record({
    fields: fc.record(form.fields, { requiredKeys: [] }),
    extra: fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), fc.string({ maxLength: 40 }), { maxKeys: 2 }),
    encoding,
    provenance,
    singleFetch: fc.boolean().map((b) => b && form.method !== "GET"),
    address: fc.ipV4(),
    segment: slugOrToken,
    language: fc.constantFrom("fr", "en", "de", "es"),
  });
}

type Case = ReturnType<typeof caseFor> extends fc.Arbitrary<infer C> ? C : never;

function requestFor(form: FormUnderTest, c: Case): { url: string; init: RequestInit } {
  const path = form.path.replace(/\{(slug|token)\}/, encodeURIComponent(c.segment));
  const values: Record<string, string> = { ...c.extra, ...(c.fields as Record<string, string>) };
  const headers: Record<string, string> = { "Fly-Client-IP": c.address, "Accept-Language": c.language };
  if (form.admin) headers.Cookie = adminCookie;
  if (c.provenance === "same-origin") headers.Origin = server.url;
  if (c.provenance === "cross-site") headers["Sec-Fetch-Site"] = "cross-site";
  if (form.method === "GET") {
    return { url: `${server.url}${path}?${new URLSearchParams(values)}`, init: { headers } };
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
  return { url, init: { method: "POST", headers, body, redirect: "manual" } };
}

describe("fuzzing every form", () => {
  const runsPerForm = Math.ceil(TOTAL_POSTS / FORMS.length);

  for (const form of FORMS) {
    it(`${form.method ?? "POST"} ${form.path} (${runsPerForm} generated requests)`, async () => {
      await fc.assert(
        fc.asyncProperty(caseFor(form), async (c) => {
          const before = rowCounts();
          const { url, init } = requestFor(form, c);
          const res = await fetch(url, init);
          await res.arrayBuffer();
          figures.posts++;
          const label = `${init.method ?? "GET"} ${url} ${c.encoding} ${c.provenance} → ${res.status}`;
          if (res.status >= 500) {
            figures.answers5xx++;
            failures.push(label);
          }
          if (res.status >= 400 && res.status < 500) {
            figures.rejected++;
            if (init.method === "POST" && rowCounts() !== before) {
              figures.rowsWrittenOnRejection++;
              failures.push(`${label}: rows changed`);
            }
          }
          expect(res.status, label).toBeLessThan(500);
        }),
        { numRuns: runsPerForm, seed: SEED, endOnFailure: true },
      );
    });
  }

  it("nothing was written for a refused post, nothing answered 5xx, and the log holds no stack trace", () => {
    expect(figures.posts).toBeGreaterThanOrEqual(TOTAL_POSTS);
    expect(failures).toEqual([]);
    expect(server.output()).not.toMatch(/Unexpected Server Error|\n\s+at .+:\d+:\d+\)/);
  });
});
