import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { admissionControl, LEAVE_ADMISSION } from "../../server/admission";

/** A server whose pages take `renderMs`; a request with `x-priority` waits in the priority line. */
function serve(renderMs: number, maxQueued = 1, priorityMaxWaitMs = 5_000) {
  const app = express();
  const admission = admissionControl(
    { maxInFlight: 1, maxQueued, maxWaitMs: 1_000, priorityMaxWaitMs, retryAfterSeconds: 5 },
    (_req, key) => key,
    (req) => req.headers["x-priority"] === "1",
  );
  app.use(admission);
  const order: string[] = [];
  app.get("*", (req, res) => {
    order.push(req.path);
    setTimeout(() => res.end(req.path), renderMs);
  });
  const server = http.createServer(app).listen(0);
  return { server, order, admission, port: () => (server.address() as AddressInfo).port };
}

function get(port: number, path: string, priority = false): Promise<{ status: number; retryAfter?: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path, agent: false, headers: priority ? { "x-priority": "1" } : {} }, (res) => {
        res.resume();
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, retryAfter: res.headers["retry-after"] as string | undefined }),
        );
      })
      .on("error", reject);
  });
}

/** Eight pages one after the other: enough for the measured service time to replace the guess. */
async function measure(port: number) {
  for (let i = 0; i < 8; i++) expect((await get(port, "/measure")).status).toBe(200);
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let close: (() => void) | undefined;
afterEach(() => close?.());

describe("admission control", () => {
  it("serves a priority page (a draw's result) before pages that waited longer, and refuses past the hard bound", async () => {
    const { server, order, port } = serve(150);
    close = () => server.close();
    await new Promise((resolve) => server.once("listening", resolve));
    const first = get(port(), "/first");
    await delay(30);
    const page = get(port(), "/page");
    await delay(30);
    const result = get(port(), "/result", true);
    await delay(30);
    // The page line (1 place) is full: refused at once, with Retry-After.
    expect(await get(port(), "/refused")).toEqual({ status: 503, retryAfter: "5" });
    expect((await Promise.all([first, page, result])).map((a) => a.status)).toEqual([200, 200, 200]);
    expect(order).toEqual(["/first", "/result", "/page"]);
  });

  it("refuses a page by the wait it can expect: those ahead times the measured service time", async () => {
    const { server, port } = serve(300, 100);
    close = () => server.close();
    await new Promise((resolve) => server.once("listening", resolve));
    // Pages measured (the first 8 after a start replace the guess): about 300 ms each, one place.
    await measure(port());
    const first = get(port(), "/first");
    await delay(30);
    // Expected waits 300, 600, 900 ms: let in; the next would wait 1.2 s, past the pages' 1 s.
    const waiting = [get(port(), "/a"), get(port(), "/b"), get(port(), "/c")];
    await delay(30);
    expect(await get(port(), "/refused")).toEqual({ status: 503, retryAfter: "5" });
    expect((await Promise.all([first, ...waiting])).map((a) => a.status)).toEqual([200, 200, 200, 200]);
  });

  it("a priority page is never refused, however long it waits", async () => {
    const { server, port } = serve(1_600);
    close = () => server.close();
    await new Promise((resolve) => server.once("listening", resolve));
    const first = get(port(), "/first");
    await delay(30);
    const page = get(port(), "/page");
    const result = get(port(), "/result", true);
    expect((await page).status).toBe(503);
    expect((await result).status).toBe(200);
    expect((await first).status).toBe(200);
  });

  it("says draws are backed up once one more result page would wait past its bound", async () => {
    const { server, admission, port } = serve(300, 4, 1_000);
    close = () => server.close();
    await new Promise((resolve) => server.once("listening", resolve));
    // A place free: draws being made do not count (their pages will be rendered at once).
    expect(admission.drawsBackedUp(100)).toBe(false);
    await measure(port());
    const first = get(port(), "/first");
    await delay(30);
    // About 300 ms a page: 3 result pages to come wait up to 900 ms, 4 up to 1.2 s.
    expect(admission.drawsBackedUp(2)).toBe(false);
    expect(admission.drawsBackedUp(3)).toBe(true);
    const one = get(port(), "/one", true);
    await delay(30);
    expect(admission.drawsBackedUp(2)).toBe(true);
    await Promise.all([first, one]);
    expect(admission.drawsBackedUp(0)).toBe(false);
  });

  it("a request that gives its place back (a sitemap audit before its wait) lets the next in, once", async () => {
    const app = express();
    app.use(
      admissionControl(
        { maxInFlight: 1, maxQueued: 4, maxWaitMs: 1_000, priorityMaxWaitMs: 5_000, retryAfterSeconds: 5 },
        (_req, key) => key,
      ),
    );
    const order: string[] = [];
    app.get("*", (req, res) => {
      order.push(`start ${req.path}`);
      // The audit leaves its place, twice (closing later frees nothing more), then waits 400 ms.
      if (req.path === "/audit") {
        (res.locals[LEAVE_ADMISSION] as () => void)();
        (res.locals[LEAVE_ADMISSION] as () => void)();
      }
      setTimeout(
        () => {
          order.push(`end ${req.path}`);
          res.end();
        },
        req.path === "/audit" ? 400 : 150,
      );
    });
    const server = http.createServer(app).listen(0);
    close = () => server.close();
    await new Promise((resolve) => server.once("listening", resolve));
    const port = (server.address() as AddressInfo).port;
    const audit = get(port, "/audit");
    await delay(30);
    // The audit's place is free: the page starts at once, the next one waits for it.
    const [one, two] = [get(port, "/one"), get(port, "/two")];
    expect((await Promise.all([audit, one, two])).map((a) => a.status)).toEqual([200, 200, 200]);
    expect(order).toEqual(["start /audit", "start /one", "end /one", "start /two", "end /two", "end /audit"]);
  });
});
