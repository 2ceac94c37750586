import fs from "node:fs";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../support/server";

/**
 * A page goes out to the socket in one system call: the head, the shell, the loader data's scripts
 * and the chunked answer's last piece together. Four per page before decision 240's round three;
 * two after it (the data came a render pass later, in its own write); one since decision 271 (the
 * data is read before the render, so React writes the page in one flush). Counted from the
 * kernel's own figure for the server process (`syscw` in /proc/<pid>/io).
 */
let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

const writes = () => Number(/syscw: (\d+)/.exec(fs.readFileSync(`/proc/${server.pid}/io`, "utf8"))![1]);

/** One request on its own keep-alive connection's agent, the body read whole. */
function get(agent: http.Agent, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port: server.port, path, agent, headers: { cookie: "unknown=1" } }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on("error", reject);
  });
}

describe("socket writes per page", () => {
  it.runIf(fs.existsSync("/proc/self/io"))("an uncached page is one write, whole", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (let i = 0; i < 10; i++) await get(agent, "/tesla");
      const pages = 40;
      const before = writes();
      for (let i = 0; i < pages; i++) {
        const { status, body } = await get(agent, i % 2 ? "/tesla" : "/");
        expect(status).toBe(200);
        // The page's last script, after the streamed data.
        expect(body).toContain("</html>");
        expect(body).toContain("window.__remixContext.streamController.close()");
      }
      const perPage = (writes() - before) / pages;
      // Before: 4.1 (the head, the shell, the data and the last piece each on their own), then 2.0
      // (the data in a write of its own). Room is left for the database's own writes.
      expect(perPage).toBeLessThan(1.5);
      expect(perPage).toBeGreaterThanOrEqual(1);
    } finally {
      agent.destroy();
    }
  });
});
