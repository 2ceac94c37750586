import http from "node:http";
import type { AddressInfo } from "node:net";

export interface SpreadProxy {
  url: string;
  /** How many requests each target got, in the targets' order. */
  served: number[];
  close: () => Promise<void>;
}

/**
 * A small HTTP proxy in front of several server processes, as Fly's proxy stands in front of a
 * site's VMs: each request goes to the next target in turn (round robin), method, path, headers and
 * body as sent, the answer back as given (redirects not followed). Loopback only.
 */
export async function startSpreadProxy(targets: string[]): Promise<SpreadProxy> {
  const served = targets.map(() => 0);
  let next = 0;
  const server = http.createServer((req, res) => {
    const index = next++ % targets.length;
    served[index]!++;
    const target = new URL(targets[index]!);
    const upstream = http.request(
      { hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}`,
    served,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
