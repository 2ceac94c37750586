import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { pageCache } from "../../server/page-cache";
import { PAGE_CACHE_HEADER } from "../../server/page-cache-header";

/**
 * The page cache in front of a page that says it depends on `language` and `theme`, as the app's do.
 * Each answer tells whether the cache wrapped its `write` to hold the bytes (it does so only for an
 * answer it may keep), and how many times the page was rendered.
 */
function serve() {
  const app = express();
  app.use(pageCache({ ttlMs: 60_000 }));
  let renders = 0;
  app.get("*", (_req, res) => {
    renders++;
    const held = Object.prototype.hasOwnProperty.call(res, "write");
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    res.setHeader(PAGE_CACHE_HEADER, "language, theme");
    res.end(`<p>${held ? "held" : "passed"} ${renders}</p>`);
  });
  const server = http.createServer(app).listen(0);
  return { server, port: () => (server.address() as AddressInfo).port };
}

async function get(port: number, path: string, cookie?: string): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers: cookie ? { Cookie: cookie } : {} });
  return res.text();
}

let close: (() => void) | undefined;
afterEach(() => close?.());

describe("page cache: which answers it holds", () => {
  it("does not hold the bytes of an answer it will not keep (a cookie no page depends on, a URL not seen yet), and still keeps the others", async () => {
    const { server, port } = serve();
    close = () => server.close();
    await new Promise((resolve) => server.once("listening", resolve));

    // An anonymous page: held, kept, served again without rendering.
    expect(await get(port(), "/a")).toBe("<p>held 1</p>");
    expect(await get(port(), "/a")).toBe("<p>held 1</p>");

    // A session's cookie on a URL the cache has not seen (after any write, every URL): not held.
    expect(await get(port(), "/b", "session=s1")).toBe("<p>passed 2</p>");
    expect(await get(port(), "/b", "session=s1")).toBe("<p>passed 3</p>");
    // The same with a cookie the page depends on besides: still a session, still not held.
    expect(await get(port(), "/c", "language=en; session=s1")).toBe("<p>passed 4</p>");

    // Only cookies the pages depend on, on a new URL: held and kept for that language.
    expect(await get(port(), "/d", "language=en")).toBe("<p>held 5</p>");
    expect(await get(port(), "/d", "language=en")).toBe("<p>held 5</p>");
    expect(await get(port(), "/d", "language=de")).toBe("<p>held 6</p>");
  });
});
