import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawConnect } from "../support/raw-http";
import type { RunningServer } from "../support/server";
import { recordFigures, startReliabilityServer } from "./support";

/**
 * Clients that open a connection and then send almost nothing: headers a byte a second, a body a
 * byte a second, or nothing at all. Each must be dropped within 30 s, while others are served.
 */
const LIMIT_MS = 30_000;

let server: RunningServer;
beforeAll(async () => {
  server = await startReliabilityServer();
});
afterAll(async () => {
  await server?.stop();
});

/** Sends `text` a byte a second until the server closes; resolves with the time it took, or null. */
async function drip(opening: string, text: string): Promise<number | null> {
  const conn = await rawConnect(server.port);
  const started = Date.now();
  if (opening) await conn.write(opening);
  const closed = conn.closedWithin(LIMIT_MS + 5_000);
  let open = true;
  void closed.then(() => (open = false));
  void (async () => {
    for (const byte of text) {
      if (!open) break;
      await conn.write(byte);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  })();
  const wasClosed = await closed;
  conn.close();
  return wasClosed ? Date.now() - started : null;
}

describe("slow clients", () => {
  it("are dropped within 30 s, and others are served meanwhile", async () => {
    const filler = "x".repeat(60);
    const cases = {
      "headers dripped": drip("", `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ${filler}\r\n\r\n`),
      "body dripped": drip(
        `POST /submit HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 60\r\n\r\n`,
        `intent=submit&code=${filler}`,
      ),
      "nothing sent": drip("", ""),
    };
    const served: number[] = [];
    const probe = (async () => {
      for (let i = 0; i < 5; i++) {
        await new Promise((resolve) => setTimeout(resolve, 2_000));
        const started = Date.now();
        const res = await fetch(`${server.url}/healthz`);
        if (res.status === 200) served.push(Date.now() - started);
      }
    })();
    const times = Object.fromEntries(await Promise.all(Object.entries(cases).map(async ([name, p]) => [name, await p] as const)));
    await probe;
    recordFigures(
      "4-slow-clients",
      Object.fromEntries(
        Object.entries(times).map(([name, ms]) => [
          `slow clients: ${name}, dropped after (s)`,
          ms === null ? "never" : (ms / 1000).toFixed(1),
        ]),
      ),
    );
    for (const [name, ms] of Object.entries(times)) {
      expect(ms, name).not.toBeNull();
      expect(ms!, name).toBeLessThan(LIMIT_MS);
    }
    expect(served).toHaveLength(5);
  });
});
