import type { Kysely } from "kysely";

// A platform an admin deleted whose rows are still being removed in the background (decision 292):
// the moment the deletion began, NULL otherwise. The server finishes such deletions after a restart.
// `any`: migrations are frozen (see 0001).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

export async function up(db: Db): Promise<void> {
  await db.schema.alterTable("platforms").addColumn("deleting_since", "text").execute();
}
