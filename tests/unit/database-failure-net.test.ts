import { describe, expect, it } from "vitest";
import { hasDatabaseNet, withDatabaseNet } from "~/utils/failures.server";

/**
 * The last net under every loader and action (decision 304): an error that says the database is
 * unavailable becomes a 503 with Retry-After and a named message; everything else passes unchanged.
 */
type Args = { request: Request };
const request = (method = "GET") =>
  new Request("https://parrainly.test/submit", { method, headers: { "Accept-Language": "en" } });

function routesWith(module: { loader?: (args: Args) => unknown; action?: (args: Args) => unknown }) {
  return {
    loader: module.loader && withDatabaseNet(module.loader),
    action: module.action && withDatabaseNet(module.action),
  };
}

const thrownBy = async (run: () => Promise<unknown>) => {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error("nothing thrown");
};

describe("the database failure net", () => {
  it("a lock held elsewhere in an action: 503, Retry-After 5 and the words for it", async () => {
    const busy = Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" });
    const { action } = routesWith({ action: () => Promise.reject(busy) });
    const answer = (await thrownBy(() => action!({ request: request("POST") }))) as Response;
    expect(answer).toBeInstanceOf(Response);
    expect(answer.status).toBe(503);
    expect(answer.headers.get("Retry-After")).toBe("5");
    expect(await answer.text()).toContain("the database is busy");
  });

  it("a full disk in an action: 503, Retry-After 60 (its kind's, not a default) and the words for it", async () => {
    const full = Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });
    const { action } = routesWith({ action: () => Promise.reject(full) });
    const answer = (await thrownBy(() => action!({ request: request("POST") }))) as Response;
    expect(answer.status).toBe(503);
    expect(answer.headers.get("Retry-After")).toBe("60");
    expect(await answer.text()).toContain("out of disk space");
  });

  it("PostgreSQL out of reach in a loader: 503, Retry-After 30 and the loading message in the page's language", async () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    const { loader } = routesWith({ loader: () => Promise.reject(refused) });
    const answer = (await thrownBy(() => loader!({ request: request() }))) as Response;
    expect(answer.status).toBe(503);
    expect(answer.headers.get("Retry-After")).toBe("30");
    // /submit is the French page's address (one URL, one language).
    expect(await answer.text()).toBe("Erreur lors du chargement");
  });

  it("anything else passes unchanged: a bug, a constraint, the route's own answers; results too", async () => {
    const bug = new TypeError("x is undefined");
    const constraint = Object.assign(new Error("UNIQUE constraint failed"), { code: "SQLITE_CONSTRAINT_UNIQUE" });
    const own = new Response("Plateforme introuvable", { status: 404 });
    for (const error of [bug, constraint, own]) {
      const { loader } = routesWith({ loader: () => Promise.reject(error) });
      expect(await thrownBy(() => loader!({ request: request() }))).toBe(error);
    }
    const { loader } = routesWith({ loader: () => ({ ok: true }) });
    expect(await loader!({ request: request() })).toEqual({ ok: true });
  });

  it("marks what it nets, and only that", () => {
    expect(hasDatabaseNet(withDatabaseNet(() => 1))).toBe(true);
    expect(hasDatabaseNet(() => 1)).toBe(false);
    expect(hasDatabaseNet(undefined)).toBe(false);
  });
});
