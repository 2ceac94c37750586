import fs from "node:fs";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../support/server";

/**
 * A page goes out to the socket in a few system calls: React's renderer as shipped flushes the
 * head, the shell, the loader data's scripts and the chunked answer's last piece (3.1 per page
 * measured; one while a patched react-dom wrote each flush as one string, removed with the other
 * forks, decision 331). Counted from the kernel's own figure for the server process (`syscw` in
 * /proc/<pid>/io): a page that starts writing per element, or per chunk of data, fails here.
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
  it.runIf(fs.existsSync("/proc/self/io"))("an uncached page is a few writes, not one per element", async () => {
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
      // The head, the shell, the data and the last piece; room is left for the database's own writes.
      expect(perPage).toBeLessThan(5);
      expect(perPage).toBeGreaterThanOrEqual(1);
    } finally {
      agent.destroy();
    }
  });
});
