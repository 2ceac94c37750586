import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadAs, loadInstalled, unpatchedSource } from "../support/installed-patches";
import { ROOT } from "../support/paths";

/**
 * patches/@remix-run+server-runtime+2.17.5.patch hands a loader the page's request itself when its
 * URL has none of the parameters Remix strips (`index`, `_routes`; `_data` without single fetch),
 * instead of two new Requests per loader (decision 240). Here the patched `callRouteLoader` and the
 * original one, rebuilt from the installed file by taking the patch back out, must give loaders a
 * request with the same URL, method, headers and signal for every kind of URL.
 */
const DATA = path.join(ROOT, "node_modules", "@remix-run", "server-runtime", "dist", "data.js");
const PATCH = path.join(ROOT, "patches", "@remix-run+server-runtime+2.17.5.patch");

type CallRouteLoader = (args: {
  loadContext: unknown;
  loader: (args: { request: Request }) => unknown;
  params: object;
  request: Request;
  routeId: string;
  singleFetch: boolean;
}) => Promise<unknown>;

const patched = loadInstalled<{ callRouteLoader: CallRouteLoader }>(DATA).callRouteLoader;
const original = loadAs<{ callRouteLoader: CallRouteLoader }>(DATA, unpatchedSource(DATA, PATCH)).callRouteLoader;

/** The request a loader is given by `call`, for `request`. */
async function given(call: CallRouteLoader, request: Request, singleFetch = true): Promise<Request> {
  let seen: Request | undefined;
  await call({
    loadContext: {},
    params: {},
    routeId: "routes/x",
    singleFetch,
    request,
    loader: ({ request: r }) => {
      seen = r;
      return null;
    },
  });
  return seen!;
}

const describeRequest = (r: Request) => ({
  url: r.url,
  method: r.method,
  headers: [...r.headers],
  aborted: r.signal.aborted,
});

const URLS = [
  "http://x/tesla",
  "http://x/tesla?lng=en",
  "http://x/tesla?lng=en#top",
  "http://x/?index",
  "http://x/?index=&lng=de",
  "http://x/?index=1&index=",
  "http://x/tesla?_routes=root,routes/$slug",
  "http://x/tesla?_data=routes/$slug&lng=es",
  "http://x/search?q=index&x=_routes",
  "http://x/%C3%A9t%C3%A9?a=%20b",
  // Queries the strip functions write anew: the same as theirs.
  "http://x/tesla?",
  "http://x/tesla?x=a,b&y=a b&z=%7E",
  "http://x/tesla?lng=en&",
];

describe("a loader's request with the server runtime patch", () => {
  it("is the original's, for every kind of URL, with and without single fetch", async () => {
    for (const url of URLS) {
      for (const singleFetch of [true, false]) {
        const request = new Request(url, { headers: { "Accept-Language": "de", Cookie: "a=1" } });
        expect(describeRequest(await given(patched, request, singleFetch)), url).toEqual(
          describeRequest(await given(original, request, singleFetch)),
        );
      }
    }
  });

  it("is the page's request itself when there is nothing to strip; a new one when there is", async () => {
    const plain = new Request("http://x/tesla?lng=en");
    expect(await given(patched, plain)).toBe(plain);
    expect(await given(original, plain)).not.toBe(plain);
    for (const url of ["http://x/?index", "http://x/tesla?_routes=root"]) {
      const request = new Request(url);
      const stripped = await given(patched, request);
      expect(stripped).not.toBe(request);
      expect(stripped.url).toBe(url.replace(/\?.*/, ""));
    }
    // Without single fetch, `_data` is Remix's and `_routes` a page's own parameter.
    const data = new Request("http://x/tesla?_data=routes/x");
    expect((await given(patched, data, false)).url).toBe("http://x/tesla");
  });

  it("aborts with the page's request, as the original's does", async () => {
    const controller = new AbortController();
    const request = new Request("http://x/tesla", { signal: controller.signal });
    const mine = await given(patched, request);
    const theirs = await given(original, request);
    controller.abort();
    expect(mine.signal.aborted).toBe(true);
    expect(theirs.signal.aborted).toBe(true);
  });
});
