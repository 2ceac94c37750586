import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../support/server";

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

/** Raw HTTP/1.1 over a socket, to see the bytes and to hang up mid-answer. */
function rawGet(url: string, path: string, method = "GET", hangUpAfterBytes?: number): Promise<Buffer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(
        `${method} ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nCookie: stream-test=1\r\nConnection: close\r\n\r\n`,
      );
    });
    const chunks: Buffer[] = [];
    let received = 0;
    socket.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      received += chunk.length;
      if (hangUpAfterBytes !== undefined && received >= hangUpAfterBytes) socket.destroy();
    });
    socket.on("close", () => resolve(Buffer.concat(chunks)));
    socket.on("error", reject);
  });
}

describe("a page's stream through @remix-run/express", () => {
  it("an uncached page arrives whole, in the visitor's language, ending with the last chunk", async () => {
    const raw = (await rawGet(server.url, "/?lng=de")).toString("latin1");
    expect(raw).toMatch(/^HTTP\/1\.1 200 /);
    expect(raw.toLowerCase()).toContain("transfer-encoding: chunked");
    expect(raw).toContain('<html lang="de"');
    expect(raw).toContain("</html>");
    // The last chunk, then the terminating empty one.
    expect(raw.endsWith("\r\n0\r\n\r\n")).toBe(true);
  });

  it("a client hanging up mid-page, and a HEAD request, leave the server answering", async () => {
    for (let i = 0; i < 5; i++) await rawGet(server.url, "/", "GET", 1);
    const head = (await rawGet(server.url, "/", "HEAD")).toString("latin1");
    expect(head).toMatch(/^HTTP\/1\.1 200 /);
    expect(head).not.toContain("<html");
    const response = await fetch(`${server.url}/healthz`);
    expect(await response.text()).toBe("ok");
    const page = await fetch(`${server.url}/`, { headers: { cookie: "stream-test=1" } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("</html>");
    // A visitor leaving is not a server error.
    expect(server.output()).not.toMatch(/Premature close|\[error\]/);
  });
});
