import { afterAll } from "vitest";
import { closeDb } from "~db/client.server";

// The PostgreSQL pass: a test file's pool (opened through useFreshDatabase) would keep its worker alive.
afterAll(async () => {
  await closeDb();
});
