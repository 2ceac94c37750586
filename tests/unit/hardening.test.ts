import type { AddressInfo } from "node:net";
import express from "express";
import fc from "fast-check";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { clientIpOf as clientAddressOf, TRUSTED_PROXIES } from "../../server/client-ip";
import { safeRedirectPath } from "~/utils/http.server";
import { claimLoginAttempt } from "~/utils/login-throttle.server";
import { useFreshDatabase } from "../support/db";

/**
 * The address `clientAddressOf` finds for a request to a real Express app (trust proxy as the server
 * sets it) over loopback, with `headers`: the socket's address is 127.0.0.1.
 */
async function addressFor(headers: Record<string, string>, trustProxy = true): Promise<string> {
  const app = express();
  app.set("trust proxy", trustProxy ? TRUSTED_PROXIES : false);
  app.get("/", (req, res) => res.send(clientAddressOf(req, trustProxy)));
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  try {
    const { port } = server.address() as AddressInfo;
    return await fetch(`http://127.0.0.1:${port}/`, { headers }).then((res) => res.text());
  } finally {
    server.close();
  }
}

describe("the client's address", () => {
  it("is the socket's unless TRUST_PROXY is on", async () => {
    expect(await addressFor({ "Fly-Client-IP": "203.0.113.1", "X-Forwarded-For": "203.0.113.2" }, false)).toBe("127.0.0.1");
  });

  it("takes Fly-Client-IP first", async () => {
    expect(await addressFor({ "Fly-Client-IP": "203.0.113.1", "X-Forwarded-For": "198.51.100.1, 198.51.100.2" })).toBe(
      "203.0.113.1",
    );
  });

  it("else the right-most X-Forwarded-For entry that is not one of our proxies", async () => {
    const at = (xff: string) => addressFor({ "X-Forwarded-For": xff });
    expect(await at("1.1.1.1, 203.0.113.7")).toBe("203.0.113.7");
    expect(await at("1.1.1.1, 203.0.113.7, 10.1.2.3, 172.16.0.9")).toBe("203.0.113.7");
    expect(await at("2001:db8::1, fdaa::3")).toBe("2001:db8::1");
    expect(await at("::ffff:203.0.113.8")).toBe("203.0.113.8");
    expect(await at("10.0.0.5")).toBe("10.0.0.5");
    expect(await at("203.0.113.7, 100.64.0.1")).toBe("203.0.113.7");
    // An unreadable entry ends the walk: nothing to its left can be trusted.
    expect(await at("203.0.113.7, not-an-ip")).toBe("127.0.0.1");
    expect(await addressFor({ "Fly-Client-IP": "garbage" })).toBe("127.0.0.1");
  });
});

describe("safeRedirectPath", () => {
  const origin = new URL(process.env.SITE_URL!).origin;

  it("keeps local paths, query and fragment", () => {
    expect(safeRedirectPath("/submit?platform=n26#form")).toBe("/submit?platform=n26#form");
    expect(safeRedirectPath("/admin/codes", "/admin")).toBe("/admin/codes");
  });

  it("refuses what a browser would follow elsewhere, and control characters", () => {
    for (const value of [
      "/\t/evil.example",
      "/\n/evil.example",
      "/\\evil.example",
      "//evil.example",
      "https://evil.example",
      "/\u0000x",
      "/x\u007f",
      "",
      null,
    ]) {
      expect(safeRedirectPath(value, "/fallback")).toBe("/fallback");
    }
  });

  it("whatever the input, the answer is a header-safe path that a browser resolves on the site", () => {
    fc.assert(
      fc.property(
        fc
          .oneof(fc.string(), fc.string({ unit: "binary" }), fc.constantFrom("/", "//", "/\\", "/\t", "/\r\n"))
          .chain((a) => fc.tuple(fc.constant(a), fc.string({ unit: "binary" }))),
        ([prefix, rest]) => {
          const path = safeRedirectPath(prefix + rest);
          // eslint-disable-next-line no-control-regex
          expect(path).not.toMatch(/[\u0000-\u001f\u007f]/);
          expect(new URL(path, origin).origin).toBe(origin);
          expect(() => new Headers({ Location: path })).not.toThrow();
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("login throttle", () => {
  // The limits' keys are pseudonyms under the month's key, which lives in the database.
  beforeAll(async () => void (await useFreshDatabase({ seed: false })));
  // The windows read the clock (rate-limiter-flexible): only Date is faked, to step an hour ahead.
  beforeEach(() => void vi.useFakeTimers({ toFake: ["Date"] }));
  afterEach(() => void vi.useRealTimers());

  it("past 100 failures in an hour, only a browser that signed in before may still try", async () => {
    const account = `victim-${Math.random()}@example.test`;
    // Each attempt counts as a failure once claimed, until a right password gives it back.
    for (let i = 0; i < 100; i++) expect((await claimLoginAttempt(account, `198.51.100.${i % 250}`, false)).ok).toBe(true);
    expect(await claimLoginAttempt(account, "203.0.113.1", false)).toMatchObject({ ok: false });
    expect(await claimLoginAttempt(account, "203.0.113.2", true)).toEqual({ ok: true, delayMs: 0 });
    // An hour later the account is free again.
    vi.setSystemTime(Date.now() + 60 * 60_000 + 1);
    expect(await claimLoginAttempt(account, "203.0.113.3", false)).toEqual({ ok: true, delayMs: 0 });
  });

  it("slows an account under attack step by step, 5 s at most", async () => {
    const account = `slow-${Math.random()}@example.test`;
    const delays: number[] = [];
    for (let i = 0; i < 40; i++) {
      const gate = await claimLoginAttempt(account, `192.0.2.${i}`, false);
      delays.push(gate.ok ? gate.delayMs : -1);
    }
    expect(delays.slice(0, 5)).toEqual([0, 0, 0, 0, 0]);
    expect(delays[5]).toBe(250);
    expect(Math.max(...delays)).toBe(5_000);
  });
});
