import net from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { onPostgres } from "../support/db";
import { createCode, createPlatform, openTestDb, type TestDb } from "../support/fixtures";
import { tmpPath } from "../support/paths";
import { postgresDatabaseFor } from "../support/postgres";
import { postForm, startServer, type RunningServer } from "../support/server";

/**
 * PostgreSQL out of reach while the server runs (a restart, a failover, the network), decision 300:
 * the server reaches its database through a small TCP relay that the test turns off (every
 * connection, open or new, is cut) and on again. While off, a page is a 503 with Retry-After and its
 * message (it was the generic 500: the layout's settings read failed first), a draw too (was a 500),
 * and /healthz says 503; once the database answers again, all of it comes back by itself, the
 * health through its probe (it never came back before: a proxy sends no visitor to an unhealthy
 * machine, so no write could have said the database was back). PostgreSQL pass only.
 */
let server: RunningServer | undefined;
let db: TestDb | undefined;
let relay: { server: net.Server; setUp: (value: boolean) => void } | undefined;
afterAll(async () => {
  await server?.stop();
  await db?.destroy();
  // Every connection through the relay cut, then the relay closed: nothing keeps the worker alive.
  relay?.setUp(false);
  await new Promise((resolve) => (relay ? relay.server.close(resolve) : resolve(undefined)));
});

/**
 * A TCP relay to the test cluster's socket (`target`, a Unix socket path: the cluster listens on no
 * TCP port); `up = false` cuts every connection through it and refuses new ones.
 */
function startRelay(target: string) {
  let up = true;
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    if (!up) return void client.destroy();
    const upstream = net.connect(target);
    open.add(client).add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
    client.pipe(upstream).pipe(client);
  });
  return new Promise<{ server: net.Server; port: number; setUp: (value: boolean) => void }>((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        server,
        port: (server.address() as net.AddressInfo).port,
        setUp: (value) => {
          up = value;
          if (!value) for (const socket of open) socket.destroy();
        },
      }),
    ),
  );
}

const draw = (slug: string) =>
  postForm(`${server!.url}/${slug}/get-code`, { intent: "draw" }, { headers: { "Accept-Language": "fr" } });

describe("PostgreSQL out of reach", () => {
  it.skipIf(!onPostgres)(
    "pages and draws answer 503 with Retry-After and a message, /healthz too; all comes back with the database",
    async () => {
      const file = tmpPath("out-of-reach.db");
      // postgres://postgres@localhost/DB?host=SOCKET_DIR&port=PORT: the server goes through the relay instead.
      const direct = new URL(await postgresDatabaseFor(file));
      const socket = `${direct.searchParams.get("host")}/.s.PGSQL.${direct.searchParams.get("port")}`;
      const started = await startRelay(socket);
      relay = started;
      const relayed = `postgres://${direct.username}@127.0.0.1:${started.port}${direct.pathname}`;
      server = await startServer({ DATABASE_FILE: file, DATABASE_URL: relayed });
      db = openTestDb(file);
      const p = await createPlatform(db);
      for (let i = 0; i < 3; i++) await createCode(db, p.id);
      expect((await fetch(`${server.url}/${p.slug}`)).status).toBe(200);
      expect((await draw(p.slug)).status).toBe(303);

      started.setUp(false);
      const page = await fetch(`${server.url}/${p.slug}`, { headers: { "Accept-Language": "fr" } });
      expect(page.status).toBe(503);
      expect(page.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(await page.text()).toContain("Erreur lors du chargement");
      const refused = await draw(p.slug);
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("30");
      const enhanced = await postForm(`${server.url}/${p.slug}/get-code.data`, { intent: "draw" });
      expect(enhanced.status).toBe(503);
      expect((await fetch(`${server.url}/healthz`)).status).toBe(503);
      // The visitor forms: each a 503 with Retry-After, never a 500.
      for (const [path, fields] of [
        ["/submit", { intent: "submit", platform: p.slug, code: "HORSLIGNE1" }],
        ["/suggest-platform", { intent: "suggest", name: "Banque Hors Ligne", description: "", website_url: "" }],
        ["/suggest-platform", { intent: "vote", suggestion_id: "1" }],
        [`/${p.slug}/get-code`, { intent: "draw" }],
        ["/random", { intent: "draw" }],
      ] as const) {
        const answer = await postForm(`${server.url}${path}`, fields, { headers: { "Accept-Language": "fr" } });
        expect({ path, intent: fields.intent, status: answer.status }).toEqual({ path, intent: fields.intent, status: 503 });
        expect(answer.headers.get("retry-after")).toMatch(/^\d+$/);
      }
      // Sign-in: the database cannot say whether the password is right, so it does not say it is wrong.
      const signIn = await postForm(`${server.url}/admin/login`, {
        email: "admin@parrainly.test",
        password: "whatever-it-is",
        redirectTo: "/admin",
      });
      expect(signIn.status).toBe(503);
      expect(signIn.headers.get("retry-after")).toMatch(/^\d+$/);
      for (const path of ["/", "/submit", "/suggest-platform", "/random", `/${p.slug}/get-code`]) {
        const answer = await fetch(`${server.url}${path}`, { headers: { "Accept-Language": "fr" } });
        expect({ path, status: answer.status }).toEqual({ path, status: 503 });
      }

      started.setUp(true);
      await expect.poll(async () => (await fetch(`${server!.url}/healthz`)).status, { timeout: 15_000, interval: 250 }).toBe(200);
      expect((await fetch(`${server.url}/${p.slug}`)).status).toBe(200);
      expect((await draw(p.slug)).status).toBe(303);
    },
    60_000,
  );
});
