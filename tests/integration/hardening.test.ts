import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ADMIN, signInAsAdmin, startServerWithAdmin } from "../support/admin";
import { rawConnect, statusesIn } from "../support/raw-http";
import { cookiesFrom, postForm, startServer, type RunningServer } from "../support/server";

/** What a hostile client tried (issue 18), each answered as it should be now. */

let server: RunningServer;
let adminCookie: string;
beforeAll(async () => {
  server = await startServerWithAdmin({ TRUST_PROXY: "1" });
  adminCookie = await signInAsAdmin(server);
});
afterAll(async () => {
  await server?.stop();
});

const FORM = "application/x-www-form-urlencoded";

/** A plain POST as a script sends it: no Origin, whatever body and headers it likes. */
function rawPost(path: string, body: string | undefined, headers: Record<string, string> = {}) {
  return fetch(`${server.url}${path}`, { method: "POST", redirect: "manual", headers, body });
}

/** Where a browser lands when it follows `location` from our site. */
const landsOn = (location: string | null) => new URL(location ?? "", server.url).origin;

describe("1. redirectTo stays on the site", () => {
  const hostile = [
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r\n/evil.example",
    "/\\evil.example",
    "//evil.example",
    "/\t\\evil.example",
  ];

  it("after a preference change: a tab, a newline or a backslash never leads off site, and is never a 500", async () => {
    for (const redirectTo of hostile) {
      const res = await postForm(`${server.url}/preferences`, { intent: "set-theme", theme: "light", redirectTo });
      expect(res.status, JSON.stringify(redirectTo)).toBe(303);
      expect(landsOn(res.headers.get("location")), JSON.stringify(redirectTo)).toBe(new URL(server.url).origin);
      expect(res.headers.get("location")).toBe("/");
    }
    const kept = await postForm(`${server.url}/preferences`, {
      intent: "set-theme",
      theme: "light",
      redirectTo: "/submit?platform=n26#form",
    });
    expect(kept.headers.get("location")).toBe("/submit?platform=n26#form");
  });

  it("after signing in, and on the login page's hidden field", async () => {
    for (const redirectTo of hostile) {
      const res = await postForm(`${server.url}/admin/login`, { email: ADMIN.email, password: ADMIN.password, redirectTo });
      expect(res.status, JSON.stringify(redirectTo)).toBe(303);
      expect(res.headers.get("location")).toBe("/admin");
      const page = await fetch(`${server.url}/admin/login?redirectTo=${encodeURIComponent(redirectTo)}`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('name="redirectTo" value="/admin"');
    }
  });
});

describe("3. a POST whose body is not a form: 400 or 415, never a 500", () => {
  const bodies: Array<{ name: string; body?: string; headers: Record<string, string> }> = [
    { name: "JSON", body: '{"intent":"submit","code":"x"}', headers: { "Content-Type": "application/json" } },
    { name: "text/plain", body: "intent=submit", headers: { "Content-Type": "text/plain" } },
    { name: "no content type", body: "intent=submit", headers: {} },
    { name: "no body at all", body: undefined, headers: {} },
    {
      name: "broken multipart",
      body: '--xyz\r\nContent-Disposition: form-data; name="intent"\r\n\r\nsubmit\r\n--xy',
      headers: { "Content-Type": "multipart/form-data; boundary=xyz" },
    },
    { name: "multipart without boundary", body: "intent=submit", headers: { "Content-Type": "multipart/form-data" } },
    { name: "urlencoded with broken percent escapes", body: "intent=%E0%A4%A&code=%", headers: { "Content-Type": FORM } },
  ];
  const publicPaths = [
    "/preferences",
    "/submit",
    "/suggest-platform",
    "/random",
    "/n26/get-code",
    "/admin/login",
    "/game/start",
    "/game/scores",
    `/my-code/${"A".repeat(43)}`,
  ];
  const adminPaths = [
    "/admin/codes",
    "/admin/platforms",
    "/admin/platforms/new",
    "/admin/partnerships",
    "/admin/deletions",
    "/admin/suggestions",
    "/admin/scores",
    "/admin/settings",
    "/admin/assistant",
  ];

  it("on every public and admin action, in HTML and single-fetch (.data) form", async () => {
    const problems: string[] = [];
    for (const path of [...publicPaths, ...adminPaths]) {
      const cookie: Record<string, string> = path.startsWith("/admin/") && path !== "/admin/login" ? { Cookie: adminCookie } : {};
      for (const variant of [path, `${path}.data`]) {
        for (const { name, body, headers } of bodies) {
          const res = await rawPost(variant, body, { ...headers, ...cookie });
          await res.arrayBuffer();
          if (res.status >= 500 || res.status < 400) problems.push(`${variant} ${name}: ${res.status}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(server.output()).not.toMatch(/TypeError|Unexpected Server Error|\n\s+at /);
  });

  it("answers 415 with a message in the visitor's language", async () => {
    const res = await rawPost("/submit", '{"code":"x"}', { "Content-Type": "application/json", "Accept-Language": "en" });
    expect(res.status).toBe(415);
    expect(await res.text()).toContain("Request refused: this is not a form.");
  });
});

describe("4. a body the route never reads does not stall the connection", () => {
  it("1.5 MB (an upload, within its cap) to /admin/logout, then the next request on the same connection is answered", async () => {
    const conn = await rawConnect(server.port);
    const body = `--zz\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n${"a".repeat(1536 * 1024)}\r\n--zz--\r\n`;
    await conn.write(
      `POST /admin/logout HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Type: multipart/form-data; boundary=zz\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    await conn.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n\r\n`);
    expect(await conn.waitFor((text) => statusesIn(text).length === 2, 5_000), conn.received().slice(0, 300)).toBe(true);
    expect(statusesIn(conn.received())).toEqual([303, 200]);
    conn.close();
  });

  it("1 MB announced to /admin/logout: refused (413) as soon as the cap is passed, and the connection closed", async () => {
    // The client sends one byte past the 64 KB cap and waits: the answer must come before the rest.
    // (Sending all of it at once races TCP itself: a server that closes with unread bytes resets the
    // connection, and the reset can wipe the 413 before the client reads it; the next test covers that.)
    const conn = await rawConnect(server.port);
    const announced = 1024 * 1024;
    await conn.write(
      `POST /admin/logout HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Type: ${FORM}\r\nContent-Length: ${announced}\r\n\r\nx=${"a".repeat(64 * 1024 - 1)}`,
    );
    expect(await conn.waitFor((text) => statusesIn(text).length === 1, 5_000), conn.received().slice(0, 300)).toBe(true);
    expect(statusesIn(conn.received())).toEqual([413]);
    expect(await conn.closedWithin(5_000)).toBe(true);
  });

  it("1 MB sent at once, then another request: the connection is closed, never left hanging", async () => {
    const conn = await rawConnect(server.port);
    const body = `x=${"a".repeat(1024 * 1024)}`;
    void conn.write(
      `POST /admin/logout HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Type: ${FORM}\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    void conn.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n\r\n`);
    expect(await conn.closedWithin(5_000)).toBe(true);
    // Whatever arrived before the close is the refusal, never an answer to either request.
    expect(statusesIn(conn.received()).filter((status) => status !== 413)).toEqual([]);
  });
});

describe("5. body caps: refused as soon as the cap is passed", () => {
  it("a 20 MB form is refused from its headers, before its body is sent", async () => {
    const conn = await rawConnect(server.port);
    await conn.write(
      `POST /submit HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Type: ${FORM}\r\nContent-Length: ${20 * 1024 * 1024}\r\n\r\nintent=submit&code=`,
    );
    expect(await conn.waitFor((text) => statusesIn(text).length > 0, 3_000)).toBe(true);
    expect(statusesIn(conn.received())).toEqual([413]);
    expect(await conn.closedWithin(3_000)).toBe(true);
    conn.close();
  });

  it("a chunked form is refused once it passes 64 KB, while the client is still sending", async () => {
    const conn = await rawConnect(server.port);
    await conn.write(
      `POST /suggest-platform HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Type: ${FORM}\r\nTransfer-Encoding: chunked\r\n\r\n`,
    );
    const chunk = "a".repeat(8 * 1024);
    for (let i = 0; i < 9; i++) await conn.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    // 72 KB sent, no final chunk: the server must not wait for the end.
    expect(await conn.waitFor((text) => statusesIn(text).length > 0, 3_000)).toBe(true);
    expect(statusesIn(conn.received())).toEqual([413]);
    conn.close();
  });

  it("a form just under 64 KB is read as usual", async () => {
    const res = await postForm(`${server.url}/preferences`, {
      intent: "set-theme",
      theme: "dark",
      padding: "a".repeat(60 * 1024),
    });
    expect(res.status).toBe(303);
  });

  it("an upload over 2 MB is refused before its body is read; a smaller one reaches the route's own 512 KB check", async () => {
    const conn = await rawConnect(server.port);
    await conn.write(
      [
        "POST /admin/platforms HTTP/1.1",
        `Host: 127.0.0.1:${server.port}`,
        `Cookie: ${adminCookie}`,
        "Content-Type: multipart/form-data; boundary=zz",
        `Content-Length: ${50 * 1024 * 1024}`,
        "",
        "--zz\r\n",
      ].join("\r\n"),
    );
    expect(await conn.waitFor((text) => statusesIn(text).length > 0, 3_000)).toBe(true);
    expect(statusesIn(conn.received())).toEqual([413]);
    conn.close();

    const form = new FormData();
    form.set("intent", "upload-logo");
    form.set("id", "1");
    form.set("variant", "light");
    form.set("file", new Blob([new Uint8Array(1024 * 1024)], { type: "image/png" }), "big.png");
    const res = await fetch(`${server.url}/admin/platforms`, {
      method: "POST",
      redirect: "manual",
      headers: { Cookie: adminCookie, Origin: server.url },
      body: form,
    });
    expect(res.status).toBe(413);
    expect(await res.text()).toContain("<html"); // the admin page itself, with the message by the file field
  });
});

describe("6. cross-site writes without Origin", () => {
  it("Sec-Fetch-Site: cross-site is refused with 403 and changes nothing", async () => {
    const res = await rawPost("/preferences", "intent=set-theme&theme=light&redirectTo=/", {
      "Content-Type": FORM,
      "Sec-Fetch-Site": "cross-site",
    });
    expect(res.status).toBe(403);
    expect(res.headers.get("set-cookie")).toBeNull();

    const settings = () => fetch(`${server.url}/admin/settings`, { headers: { Cookie: adminCookie } }).then((r) => r.text());
    const before = await settings();
    const admin = await rawPost("/admin/settings", "intent=save&key=price_tracker_name&value=Hijacked", {
      "Content-Type": FORM,
      "Sec-Fetch-Site": "cross-site",
      Cookie: adminCookie,
    });
    expect(admin.status).toBe(403);
    const after = await settings();
    expect(after).not.toContain("Hijacked");
    expect(before.includes("Hijacked")).toBe(false);

    const sameSite = await rawPost("/preferences", "intent=set-theme&theme=light&redirectTo=/", {
      "Content-Type": FORM,
      "Sec-Fetch-Site": "same-site",
    });
    expect(sameSite.status).toBe(403);
  });

  it("the site's own forms (same-origin) and typed requests (none) still pass", async () => {
    for (const site of ["same-origin", "none"]) {
      const res = await rawPost("/preferences", "intent=set-theme&theme=light&redirectTo=/", {
        "Content-Type": FORM,
        "Sec-Fetch-Site": site,
        Origin: server.url,
      });
      expect(res.status).toBe(303);
    }
  });
});

describe("found by the fuzzing", () => {
  it("a form posted to an unknown path is a 404, not a 405 with a stack trace in the log", async () => {
    const res = await rawPost("/no/such/page", "intent=x", { "Content-Type": FORM, Origin: server.url });
    expect(res.status).toBe(404);
    expect(server.output()).not.toContain("did not provide an `action`");
  });

  it("an encoded backslash at the start of a path is a 404, not a 500 from the router", async () => {
    for (const path of ["/%5C%25/get-code", "/%5C", "/%5c%5Cevil.example"]) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status, path).toBe(404);
      const post = await rawPost(path, "intent=draw", { "Content-Type": FORM, Origin: server.url });
      expect(post.status, path).toBe(404);
    }
  });

  it("a refusal before Remix is worded by the app, in the language the app would answer in (decision 262)", async () => {
    // A page read: ?lng=, else French, whatever the cookie and the browser say.
    expect(await (await fetch(`${server.url}/%5C`)).text()).toBe("Page introuvable.");
    expect(await (await fetch(`${server.url}/%5C?lng=de`)).text()).toBe("Seite nicht gefunden.");
    expect(await (await fetch(`${server.url}/%5C`, { headers: { cookie: "language=es", "accept-language": "en" } })).text()).toBe(
      "Page introuvable.",
    );
    // A form: the cookie, then the browser's language.
    const post = (headers: Record<string, string>) =>
      rawPost("/%5C", "intent=draw", { "Content-Type": FORM, Origin: server.url, ...headers });
    expect(await (await post({ Cookie: "language=es" })).text()).toBe("Página no encontrada.");
    expect(await (await post({ "Accept-Language": "it, en;q=0.8" })).text()).toBe("Page not found.");
  });
});

describe("7. connections per address, when clients connect directly", () => {
  it("the 257th open connection from one address is closed at once; once one closes, a new one is served", async () => {
    const direct = await startServer();
    const open: Awaited<ReturnType<typeof rawConnect>>[] = [];
    try {
      for (let i = 0; i < 256; i++) open.push(await rawConnect(direct.port));
      const extra = await rawConnect(direct.port);
      expect(await extra.closedWithin(3_000)).toBe(true);
      // The ones within the cap are still open and answer.
      const first = open[0]!;
      await first.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${direct.port}\r\n\r\n`);
      expect(await first.waitFor((text) => statusesIn(text).length === 1, 5_000)).toBe(true);
      expect(statusesIn(first.received())).toEqual([200]);
      // One leaves: room for another.
      const last = open.pop()!;
      last.close();
      await last.closedWithin(3_000);
      // The server frees the place once it has seen the close: a new connection is kept from then on.
      const next = await vi.waitFor(
        async () => {
          const attempt = await rawConnect(direct.port);
          if (await attempt.closedWithin(200)) throw new Error("closed at once: the place is not free yet");
          return attempt;
        },
        { timeout: 5_000, interval: 20 },
      );
      open.push(next);
      await next.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${direct.port}\r\n\r\n`);
      expect(await next.waitFor((text) => statusesIn(text).length === 1, 5_000)).toBe(true);
      expect(statusesIn(next.received())).toEqual([200]);
    } finally {
      for (const conn of open) conn.close();
      await direct.stop();
    }
  }, 60_000);
});

describe("8. HSTS and the client's address behind the proxy", () => {
  it("sends Strict-Transport-Security in production", async () => {
    const res = await fetch(`${server.url}/healthz`);
    expect(res.headers.get("strict-transport-security")).toBe("max-age=31536000");
  });

  it("a client cannot escape a per-address limit by writing its own X-Forwarded-For entries", async () => {
    // /submit counts 30 posts per address in 10 minutes (an empty code is refused after counting).
    const statuses: number[] = [];
    for (let i = 0; i < 32; i++) {
      const res = await postForm(
        `${server.url}/submit`,
        { intent: "submit", platform: "tesla", code: "" },
        { headers: { "X-Forwarded-For": `198.51.100.${i}, 203.0.113.9` } },
      );
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 30).every((s) => s === 400)).toBe(true);
    expect(statuses.slice(30)).toEqual([429, 429]);
  });
});

describe("2. nobody can lock the admin out", () => {
  /** Each case on a server of its own: the account-wide slowdown would carry over. */
  async function withServer(
    run: (login: (password: string, address: string, cookie?: string) => Promise<Response>) => Promise<void>,
  ) {
    const locked = await startServerWithAdmin({ TRUST_PROXY: "1" });
    try {
      await run((password, address, cookie) =>
        postForm(
          `${locked.url}/admin/login`,
          { email: ADMIN.email, password },
          { cookie, headers: { "Fly-Client-IP": address } },
        ),
      );
    } finally {
      await locked.stop();
    }
  }

  it(
    "10 wrong passwords from many addresses slow the account down, but the right password still signs in",
    () =>
      withServer(async (login) => {
        for (let i = 0; i < 10; i++) expect((await login(`wrong-${i}`, `198.51.100.${i + 1}`)).status).toBe(401);
        const started = Date.now();
        expect((await login(ADMIN.password, "203.0.113.50")).status).toBe(303);
        // This 11th attempt waited: 6 failures past the 5 free ones, 0.25 s each.
        expect(Date.now() - started).toBeGreaterThanOrEqual(1_400);
      }),
    60_000,
  );

  it(
    "10 wrong passwords from one address stop that address for this account only",
    () =>
      withServer(async (login) => {
        for (let i = 0; i < 10; i++) expect((await login(`wrong-${i}`, "192.0.2.77")).status).toBe(401);
        const blocked = await login(ADMIN.password, "192.0.2.77");
        expect(blocked.status).toBe(429);
        expect(blocked.headers.get("retry-after")).toMatch(/^\d+$/);
        expect((await login(ADMIN.password, "192.0.2.78")).status).toBe(303);
      }),
    60_000,
  );

  it(
    "a browser that signed in before is not slowed by what others do",
    () =>
      withServer(async (login) => {
        const first = await login(ADMIN.password, "192.0.2.90");
        expect(first.status).toBe(303);
        const device = cookiesFrom(first)
          .split("; ")
          .filter((pair) => pair.startsWith("admin_device="))
          .join("; ");
        expect(device).toMatch(/^admin_device=/);
        // Signed, not secret: what it carries must not name the account.
        const carried = Buffer.from(decodeURIComponent(device.slice("admin_device=".length)).split(".")[0]!, "base64").toString();
        expect(carried).not.toContain(ADMIN.email);
        expect(carried).not.toContain("parrainly.test");
        for (let i = 0; i < 10; i++) expect((await login(`wrong-${i}`, `198.51.100.${i + 1}`)).status).toBe(401);
        const timed = async (address: string, cookie?: string) => {
          const started = Date.now();
          expect((await login(ADMIN.password, address, cookie)).status).toBe(303);
          return Date.now() - started;
        };
        // Both check the password; only the browser without the cookie waits the account's 1.5 s.
        const known = await timed("192.0.2.91", device);
        const unknown = await timed("192.0.2.92");
        expect(unknown - known).toBeGreaterThan(700);
      }),
    60_000,
  );
});
