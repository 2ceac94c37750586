// npm run db:seed — base data (idempotent); SEED_DEMO=1 adds demo codes, suggestions, partners, scores.
import { closeDb, getDb } from "~db/client.server";
import { migrateToLatest } from "~db/migrate.server";
import { seedDemo } from "~db/seed-demo.server";
import { seedBase } from "~db/seed.server";
import { getEnv } from "~/utils/env.server";

const db = getDb();
await migrateToLatest(db);
const base = await seedBase(db);
console.log(`Base data: ${base.platforms} platform(s) and ${base.settings} setting(s) added.`);
if (getEnv().SEED_DEMO) console.log(`Demo data: ${await seedDemo(db)} added.`);
await closeDb();
