import { afterAll, beforeAll, expect, it } from "vitest";
import { startServerWithAdmin } from "../support/admin";
import { postForm, type RunningServer } from "../support/server";

/** Found by the reliability fuzzer: an over-long sign-in field was a 500 (zod's own message reached t()). */
let server: RunningServer;
beforeAll(async () => {
  server = await startServerWithAdmin({});
});
afterAll(() => server?.stop());

it("an e-mail or password over its cap is a 400 'Erreur de connexion', never a 500", async () => {
  for (const fields of [
    { email: "admin@example.com", password: "a".repeat(1025) },
    { email: `${"a".repeat(250)}@example.com`, password: "secret" },
  ]) {
    const res = await postForm(`${server.url}/admin/login`, fields, { headers: { Origin: server.url } });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Erreur de connexion");
  }
});
