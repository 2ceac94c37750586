// npm run admin:create -- --email E --password P — creates an admin, or resets that admin's password.
import { parseArgs } from "node:util";
import { z } from "zod";
import { closeDb, getDb } from "~db/client.server";
import { migrateToLatest } from "~db/migrate.server";
import { upsertAdmin } from "~db/repositories/users.server";

const { values } = parseArgs({ options: { email: { type: "string" }, password: { type: "string" } }, strict: true });
const parsed = z
  .object({
    email: z.string({ required_error: "--email is required" }).email("--email must be an email address"),
    password: z.string({ required_error: "--password is required" }).min(12, "--password must be at least 12 characters"),
  })
  .safeParse(values);
if (!parsed.success) {
  console.error(parsed.error.issues.map((i) => i.message).join("\n"));
  console.error("Usage: npm run admin:create -- --email you@example.com --password 'a long passphrase'");
  process.exit(2);
}
const db = getDb();
await migrateToLatest(db);
const outcome = await upsertAdmin(parsed.data.email, parsed.data.password, db);
console.log(
  {
    created: `Admin ${parsed.data.email} created.`,
    updated: `Admin ${parsed.data.email}: password updated, other sessions signed out.`,
    unchanged: `Admin ${parsed.data.email} already exists with that password.`,
  }[outcome],
);
console.log("Sign in at /admin/login.");
await closeDb();
