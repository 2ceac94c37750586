import http from "node:http";
import type { RequestListener } from "node:http";
import { addressKey } from "./address-key";

/**
 * Limits on the connection itself (decision 110):
 * - headers must be complete within 15 s and the whole request within 25 s, checked every 2 s,
 *   so a client dripping bytes is dropped within 30 s (Node's defaults: 60 s, 300 s, every 30 s);
 * - at most 256 open connections per address when clients connect directly (a browser opens 6),
 *   an IPv6 /64 counting as one address (addressKey, as every limit of the app).
 *   Behind a proxy (TRUST_PROXY=1) every connection comes from the proxy, which limits clients itself.
 * Idle keep-alive connections stay open 65 s, longer than the proxy keeps its own.
 */
const HEADERS_TIMEOUT_MS = 15_000;
const REQUEST_TIMEOUT_MS = 25_000;
const CONNECTIONS_CHECKING_INTERVAL_MS = 2_000;
const MAX_CONNECTIONS_PER_ADDRESS = 256;

export function createHardenedServer(app: RequestListener, options: { trustProxy: boolean }): http.Server {
  const server = http.createServer(
    {
      headersTimeout: HEADERS_TIMEOUT_MS,
      requestTimeout: REQUEST_TIMEOUT_MS,
      connectionsCheckingInterval: CONNECTIONS_CHECKING_INTERVAL_MS,
    },
    app,
  );
  server.keepAliveTimeout = 65_000;
  if (!options.trustProxy) capConnectionsPerAddress(server, MAX_CONNECTIONS_PER_ADDRESS);
  return server;
}

function capConnectionsPerAddress(server: http.Server, max: number) {
  const open = new Map<string, number>();
  server.on("connection", (socket) => {
    const address = addressKey(socket.remoteAddress ?? "unknown");
    const count = (open.get(address) ?? 0) + 1;
    if (count > max) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once("close", () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}
