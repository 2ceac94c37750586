import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInAsAdmin, startServerWithAdmin } from "../support/admin";
import type { RunningServer } from "../support/server";

/**
 * Over HTTP against the built server (decision 306): every page's head holds the first paint with a
 * small script (nonce'd, the head's last element, before the page's content) that names an element
 * of the page; the element is there, after the script, so the hold ends where the route meant and not
 * only when the whole document is parsed. The home page waits for its hero, an admin page for its
 * tabs, the others for the footer.
 */
let server: RunningServer;
let adminCookie: string;
beforeAll(async () => {
  server = await startServerWithAdmin({ SEED_DEMO: "1" });
  adminCookie = await signInAsAdmin(server);
});
afterAll(async () => {
  await server?.stop();
});

const HOLD =
  /<script id="first-paint-hold" nonce="[^"]+">\(l=>\{l\.rel="expect";l\.href="#([\w-]+)";l\.setAttribute\("blocking","render"\);document\.currentScript\.append\(l\)\}\)\(document\.createElement\("link"\)\)<\/script>/;

async function holdOf(path: string, cookie = "") {
  const response = await fetch(new URL(path, server.url), { headers: cookie ? { Cookie: cookie } : {}, redirect: "manual" });
  expect(response.status, path).toBe(200);
  const html = await response.text();
  const match = HOLD.exec(html);
  expect(match, `${path}: the hold's script`).not.toBeNull();
  // The head's last element: React leaves what follows its own elements in the head alone when it hydrates.
  expect(html.indexOf(`${match![0]}</head>`), `${path}: last in the head`).toBe(match!.index);
  expect(html.indexOf("</head>"), `${path}: one head`).toBe(match!.index + match![0].length);
  // The page's CSP nonce, as its other scripts have it.
  const nonce = /<script nonce="([^"]+)"/.exec(html.slice(match!.index + match![0].length))?.[1];
  expect(match![0], `${path}: the page's nonce`).toContain(`nonce="${nonce}"`);
  const target = match![1]!;
  const at = html.indexOf(`id="${target}"`);
  expect(at, `${path}: #${target} is in the page, after the script`).toBeGreaterThan(html.indexOf(match![0]));
  expect(html.indexOf(`id="${target}"`, at + 1), `${path}: one #${target}`).toBe(-1);
  return target;
}

describe("the first paint's hold", () => {
  it("names the hero on the home page and the footer on the visitor pages", async () => {
    expect(await holdOf("/")).toBe("home-hero");
    expect(await holdOf("/?lng=en")).toBe("home-hero");
    for (const path of ["/tesla", "/tesla/get-code", "/submit", "/platforms", "/suggest-platform", "/privacy", "/terms?lng=de"])
      expect(await holdOf(path), path).toBe("site-footer");
  });

  it("names the tabs on an admin page, whatever the tab's length", async () => {
    for (const path of ["/admin/assistant", "/admin/platforms", "/admin/codes", "/admin/settings"])
      expect(await holdOf(path, adminCookie), path).toBe("admin-tabs");
  });

  it("an error page holds for its footer too", async () => {
    const response = await fetch(new URL("/no-such-platform-here", server.url));
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(HOLD.exec(html)?.[1]).toBe("site-footer");
    expect(html).toContain('id="site-footer"');
  });
});
