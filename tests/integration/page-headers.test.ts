import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../support/server";

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

describe("page headers", () => {
  it("HTML pages say they vary with the cookies and Accept-Language (the root loader's Vary is kept)", async () => {
    for (const target of ["/", "/submit", "/privacy"]) {
      const response = await fetch(`${server.url}${target}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toContain("text/html");
      expect(response.headers.get("vary")).toMatch(/Cookie/);
      expect(response.headers.get("vary")).toMatch(/Accept-Language/);
    }
  });
});
