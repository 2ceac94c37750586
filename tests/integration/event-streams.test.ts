import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_EVENT_STREAMS_MAX, EVENT_STREAMS_PER_ADDRESS, eventStreamsMaxFromEnv } from "../../server/event-streams";
import { signInAsAdmin, startServerWithAdmin } from "../support/admin";
import { postForm, type RunningServer } from "../support/server";

/**
 * The live settings stream is bounded (decision 280): Fly's proxy counts each open stream as a request
 * in flight, so open tabs must never hold the places pages need. A server allowed two streams.
 */
let server: RunningServer;
beforeAll(async () => {
  server = await startServerWithAdmin({ EVENT_STREAMS_MAX: "2" });
});
afterAll(async () => {
  await server?.stop();
});

interface OpenStream {
  status: number;
  contentType: string | null;
  /** What the stream has sent so far, read until `pattern` shows (or the stream ends). */
  readUntil: (pattern: RegExp) => Promise<string>;
  close: () => void;
}

/**
 * Opens `/events/settings` as a browser does, over its own connection; `close` ends that connection
 * at once, as EventSource.close() does (fetch's abort may leave it open for seconds).
 */
async function openStream(target = server, headers: Record<string, string> = {}): Promise<OpenStream> {
  const req = http.get(`${target.url}/events/settings`, { headers, agent: false });
  const res = await new Promise<http.IncomingMessage>((resolve, reject) => req.once("response", resolve).once("error", reject));
  res.setEncoding("utf8");
  let received = "";
  let ended = false;
  res.on("data", (chunk: string) => (received += chunk));
  res.once("end", () => (ended = true));
  res.once("close", () => (ended = true));
  return {
    status: res.statusCode ?? 0,
    contentType: res.headers["content-type"] ?? null,
    async readUntil(pattern) {
      while (!pattern.test(received) && !ended) await new Promise((resolve) => res.once("data", resolve).once("close", resolve));
      return received;
    },
    close: () => req.destroy(),
  };
}

const CURRENT = /event: setting\ndata: \{"key":"enable_theme_toggle","value":"(true|false)"\}\n\n/;

describe("the live settings stream, bounded", () => {
  it("starts with the current value, so a page that reopens it learns what changed meanwhile", async () => {
    const stream = await openStream();
    try {
      expect(stream.status).toBe(200);
      expect(stream.contentType).toContain("text/event-stream");
      const first = await stream.readUntil(CURRENT);
      expect(first).toMatch(/^retry: 10000\n\n/);
      expect(CURRENT.exec(first)?.[1]).toBe("true");
    } finally {
      stream.close();
    }
  });

  it("answers 204 past its bound (EventSource then stops), and has room again once a stream closes", async () => {
    // The stream of the test above may still be closing on the server: wait until both places are free.
    const [a, b] = await twoOpenStreams();
    try {
      const refused = await fetch(`${server.url}/events/settings`);
      expect(refused.status).toBe(204);
      expect(refused.headers.get("cache-control")).toBe("no-store");
      expect(await refused.text()).toBe("");
      expect(refused.headers.get("content-type")).toBeNull();
      // Pages are not streams: they are served as ever while the streams are full.
      expect((await fetch(`${server.url}/`)).status).toBe(200);

      a.close();
      const again = await eventually(async () => {
        const stream = await openStream();
        if (stream.status === 200) return stream;
        return null;
      });
      again.close();
    } finally {
      a.close();
      b.close();
    }
  });

  it("sends a change to every open stream", async () => {
    const [a, b] = await twoOpenStreams();
    const cookie = await signInAsAdmin(server);
    const save = (value: string) =>
      postForm(`${server.url}/admin/settings`, { intent: "save", key: "enable_theme_toggle", value }, { cookie });
    try {
      await a.readUntil(CURRENT);
      await b.readUntil(CURRENT);
      expect((await save("false")).status).toBe(303);
      const changed = /"value":"false"/;
      expect(await a.readUntil(changed)).toMatch(changed);
      expect(await b.readUntil(changed)).toMatch(changed);
    } finally {
      a.close();
      b.close();
      expect((await save("true")).status).toBe(303);
    }
  });
});

describe("one address's share", () => {
  it(`holds at most ${EVENT_STREAMS_PER_ADDRESS} streams per address (behind the proxy, its client address)`, async () => {
    const proxied = await startServerWithAdmin({ EVENT_STREAMS_MAX: "10", TRUST_PROXY: "1" });
    const streams: OpenStream[] = [];
    try {
      const from = (ip: string) => ({ "Fly-Client-IP": ip });
      for (let i = 0; i < EVENT_STREAMS_PER_ADDRESS; i++) streams.push(await openStream(proxied, from("203.0.113.7")));
      expect(streams.map((s) => s.status)).toEqual(Array(EVENT_STREAMS_PER_ADDRESS).fill(200));
      const refused = await openStream(proxied, from("203.0.113.7"));
      streams.push(refused);
      expect(refused.status).toBe(204);
      const other = await openStream(proxied, from("198.51.100.9"));
      streams.push(other);
      expect(other.status).toBe(200);
    } finally {
      streams.forEach((s) => s.close());
      await proxied.stop();
    }
  });
});

describe("EVENT_STREAMS_MAX", () => {
  it("reads a whole number of streams, 0 included; anything else keeps the default", () => {
    expect(eventStreamsMaxFromEnv({ EVENT_STREAMS_MAX: "5" })).toBe(5);
    expect(eventStreamsMaxFromEnv({ EVENT_STREAMS_MAX: "0" })).toBe(0);
    for (const raw of [undefined, "", "-1", "2.5", "many"]) {
      expect(eventStreamsMaxFromEnv({ EVENT_STREAMS_MAX: raw })).toBe(DEFAULT_EVENT_STREAMS_MAX);
    }
  });
});

/** Two streams open, once the places of streams closed just before are given back. */
async function twoOpenStreams(): Promise<[OpenStream, OpenStream]> {
  return eventually(async () => {
    const a = await openStream();
    const b = await openStream();
    if (a.status === 200 && b.status === 200) return [a, b] as [OpenStream, OpenStream];
    a.close();
    b.close();
    return null;
  });
}

/** Tries `attempt` every 50 ms for up to 5 s; fails the test if it never answers. */
async function eventually<T>(attempt: () => Promise<T | null>): Promise<T> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const result = await attempt();
    if (result !== null) return result;
    if (Date.now() > deadline) throw new Error("never happened within 5 s");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
