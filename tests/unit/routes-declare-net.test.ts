import { describe, expect, it, vi } from "vitest";
import { hasDatabaseNet } from "~/utils/failures.server";

/**
 * Every route declares its last net (decision 304): the loader and action of each route module are
 * made by withDatabaseNet, so a database unavailable for now answers 503 and never the generic 500.
 * The real modules, as the router loads them.
 */
type RouteModule = Record<string, unknown>;

// The macros as the server build leaves them (vite.config.ts compiles them; vitest.config.ts does not):
// the assistant's markdown renderer is the browser's only.
vi.mock("vite-env-only/macros", () => ({ clientOnly$: () => undefined, serverOnly$: <T>(value: T) => value }));

const routes: Record<string, () => Promise<RouteModule>> = {
  ...import.meta.glob<RouteModule>("../../app/routes/*.tsx", { eager: false }),
  ...import.meta.glob<RouteModule>("../../app/root.tsx", { eager: false }),
};

describe("every route declares its database net", () => {
  it("finds the route modules (an empty glob proves nothing)", () => {
    expect(Object.keys(routes).filter((file) => file.includes("/routes/")).length).toBeGreaterThanOrEqual(40);
    expect(Object.keys(routes)).toContain("../../app/root.tsx");
  });

  it("each exported loader and action is made by withDatabaseNet", async () => {
    const offenders: string[] = [];
    let netted = 0;
    for (const [file, load] of Object.entries(routes)) {
      const module = await load();
      for (const name of ["loader", "action"])
        if (name in module) {
          if (hasDatabaseNet(module[name])) netted++;
          else offenders.push(`${file.replace("../../", "")} (${name})`);
        }
    }
    expect(offenders, `without withDatabaseNet: ${offenders.join(", ")}`).toEqual([]);
    expect(netted).toBeGreaterThanOrEqual(70);
  });
});
