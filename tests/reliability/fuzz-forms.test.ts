import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { signInAsAdmin } from "../support/admin";
import type { RunningServer } from "../support/server";
import { FORMS, type FormUnderTest } from "./forms";
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
  close: () => Promise<void>;
}

async function startTarget(): Promise<Target> {
  const server = await startReliabilityServer({ SEED_DEMO: "1" });
  const adminCookie = await signInAsAdmin(server);
  const db = openReadOnly(server.dbFile);
  return {
    server,
    adminCookie,
    rowCounts: rowCountsOf(db),
    close: async () => {
      db.close();
      await server.stop();
    },
  };
}

const figures = { posts: 0, answers5xx: 0, rejected: 0, rowsWrittenOnRejection: 0 };
const failures: string[] = [];
const outputs: string[] = [];
const started = Date.now();

afterAll(() => {
  recordFigures("1-fuzz", {
    "fuzz: form posts tried": figures.posts,
    "fuzz: answers 5xx": figures.answers5xx,
    "fuzz: posts refused (4xx)": figures.rejected,
    "fuzz: posts refused that wrote rows": figures.rowsWrittenOnRejection,
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

function requestFor(target: Target, form: FormUnderTest, c: Case): { url: string; init: RequestInit } {
  const { server, adminCookie } = target;
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

async function fuzzForm(target: Target, form: FormUnderTest, runs: number) {
  await fc.assert(
    fc.asyncProperty(caseFor(form), async (c) => {
      const before = target.rowCounts();
      const { url, init } = requestFor(target, form, c);
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
    expect(failures).toEqual([]);
    for (const output of outputs) expect(output).not.toMatch(/Unexpected Server Error|\n\s+at .+:\d+:\d+\)/);
  });
});
