// npm run db:migrate — brings DATABASE_URL to the latest migration, then exits.
import { closeDb, getDb } from "~db/client.server";
import { migrateToLatest } from "~db/migrate.server";
import { getEnv } from "~/utils/env.server";

const applied = await migrateToLatest(getDb());
console.log(applied.length ? `Applied: ${applied.join(", ")}` : `Already at the latest migration (${getEnv().DATABASE_URL}).`);
await closeDb();
