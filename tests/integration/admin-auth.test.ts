import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, signInAsAdmin, startServerWithAdmin } from "../support/admin";
import { createUser, openTestDb, withRawDb } from "../support/fixtures";
import { cookiesFrom, postForm, type RunningServer } from "../support/server";

let server: RunningServer;
beforeAll(async () => {
  server = await startServerWithAdmin();
});
afterAll(async () => {
  await server?.stop();
});

async function countSessions(): Promise<number> {
  return withRawDb(
    server.dbFile,
    async (db) => (await db.get<{ n: number }>("select cast(count(*) as integer) as n from sessions"))!.n,
  );
}

describe("admin sign-in", () => {
  it("redirects strangers from /admin to the login page", async () => {
    const res = await fetch(`${server.url}/admin`, { redirect: "manual" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/admin/login?redirectTo=%2Fadmin");
  });

  it("signs the admin in with a session row and an httpOnly, Secure, SameSite=Lax cookie", async () => {
    const before = await countSessions();
    const res = await postForm(`${server.url}/admin/login`, {
      email: ADMIN.email,
      password: ADMIN.password,
      redirectTo: "/admin",
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/admin");
    const sessionCookie = res.headers.getSetCookie().find((c) => c.startsWith("__session="))!;
    expect(sessionCookie).toMatch(/HttpOnly/i);
    expect(sessionCookie).toMatch(/Secure/i);
    expect(sessionCookie).toMatch(/SameSite=Lax/i);
    expect(await countSessions()).toBe(before + 1);
    const dashboard = await fetch(`${server.url}/admin`, { headers: { Cookie: cookiesFrom(res) }, redirect: "manual" });
    expect(dashboard.status).toBe(303);
    expect(dashboard.headers.get("location")).toBe("/admin/assistant");
  });

  it("answers a wrong password and an unknown email alike, with 'Erreur de connexion'", async () => {
    const wrong = await postForm(`${server.url}/admin/login`, { email: ADMIN.email, password: "not-the-password" });
    const unknown = await postForm(`${server.url}/admin/login`, { email: "nobody@parrainly.test", password: "not-the-password" });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    const [a, b] = [await wrong.text(), await unknown.text()];
    expect(a).toContain("Erreur de connexion");
    expect(b).toContain("Erreur de connexion");
    expect(wrong.headers.getSetCookie().some((c) => c.startsWith("__session="))).toBe(false);
  });

  it("refuses empty fields with 400", async () => {
    const res = await postForm(`${server.url}/admin/login`, { email: "", password: "" });
    expect(res.status).toBe(400);
  });

  it("signs a non-admin account out at once with 'Accès non autorisé'", async () => {
    const db = openTestDb(server.dbFile);
    await createUser(db, { email: "visitor@parrainly.test", password: "visitor-passphrase", admin: false });
    await db.destroy();
    const before = await countSessions();
    const res = await postForm(`${server.url}/admin/login`, { email: "visitor@parrainly.test", password: "visitor-passphrase" });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("Accès non autorisé");
    expect(res.headers.getSetCookie().some((c) => c.startsWith("__session="))).toBe(false);
    expect(await countSessions()).toBe(before);
  });

  it("logout revokes the session server-side (the old cookie no longer works)", async () => {
    const cookie = await signInAsAdmin(server);
    const out = await postForm(`${server.url}/admin/logout`, {}, { cookie });
    expect(out.status).toBe(303);
    expect(out.headers.get("location")).toBe("/");
    const again = await fetch(`${server.url}/admin`, { headers: { Cookie: cookie }, redirect: "manual" });
    expect(again.headers.get("location")).toMatch(/^\/admin\/login/);
  });

  it("refuses a cross-origin POST even with a valid admin session", async () => {
    const cookie = await signInAsAdmin(server);
    const res = await postForm(`${server.url}/admin/logout`, {}, { cookie, headers: { Origin: "https://evil.example" } });
    expect(res.status).toBe(403);
    const still = await fetch(`${server.url}/admin`, { headers: { Cookie: cookie }, redirect: "manual" });
    expect(still.headers.get("location")).toBe("/admin/assistant");
  });
});

describe("login rate limit", () => {
  it("40 wrong attempts meet a 429 with a clear page", async () => {
    const limited = await startServerWithAdmin();
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) {
        const res = await postForm(`${limited.url}/admin/login`, { email: ADMIN.email, password: `wrong-${i}` });
        statuses.push(res.status);
        if (res.status === 429) {
          expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
          expect(await res.text()).toContain("Trop de tentatives");
        }
      }
      expect(statuses).toContain(429);
      expect(statuses.slice(0, 5).every((s) => s === 401)).toBe(true);
    } finally {
      await limited.stop();
    }
  });
});
