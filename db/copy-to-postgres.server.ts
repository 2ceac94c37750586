import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { sql, type Kysely } from "kysely";
import type { DB } from "./client.server";
import { migrateToLatest } from "./migrate.server";

// `any`: the copy follows the tables the SQLite file has, whatever today's schema types say.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Not data: SQLite's and Kysely's own tables, rate-limit windows (minutes long, memory on SQLite),
 * and the code counts that PostgreSQL's triggers rebuild as the codes are copied (migration 0013).
 */
const NOT_COPIED = /^(sqlite_|kysely_)|^rate_limits$|^platform_code_counts$/;
const ROWS_PER_INSERT = 200;
/**
 * Rows read from the file at a time. Reading each table whole held 140 MB of JavaScript objects for
 * the draws and answers of the scale data set once retention had run (2.7 million draws before it),
 * on a 256 MB VM where the command runs beside the server (decision 285).
 */
const ROWS_PER_READ = 2_000;
/** The column name the rowid is read under (no table has a column of that name). */
const ROWID = "__copy_rowid";
const LOGO_TYPES: Record<string, string> = { png: "image/png", jpg: "image/jpeg", webp: "image/webp" };

/** The SQLite file's tables, each after the tables its foreign keys point at. */
function tablesInOrder(source: SQLite.Database): string[] {
  const names = (
    source.prepare("select name from sqlite_master where type = 'table' order by name").all() as Array<{ name: string }>
  )
    .map((r) => r.name)
    .filter((name) => !NOT_COPIED.test(name));
  const ordered: string[] = [];
  const visit = (name: string, seen: Set<string>) => {
    if (ordered.includes(name) || seen.has(name)) return;
    seen.add(name);
    const parents = source.prepare(`select "table" from pragma_foreign_key_list(?)`).all(name) as Array<{ table: string }>;
    for (const { table } of parents) if (table !== name && names.includes(table)) visit(table, seen);
    ordered.push(name);
  };
  for (const name of names) visit(name, new Set());
  return ordered;
}

/**
 * Moving a site from SQLite to PostgreSQL: every row of the SQLite file into `target` (migrated
 * here, and refused unless it holds no row yet), in one PostgreSQL transaction, from one consistent
 * read of the file; each serial key continues after the largest copied id. Logos that an older
 * server kept as files in `uploadsDir` go into `uploaded_files` too. Answers the rows copied per table.
 */
export async function copySqliteToPostgres(
  sqliteFile: string,
  target: DB,
  { uploadsDir }: { uploadsDir?: string } = {},
): Promise<Record<string, number>> {
  if (!fs.existsSync(sqliteFile)) throw new Error(`No SQLite database at ${sqliteFile}.`);
  const source = new SQLite(sqliteFile, { readonly: true, fileMustExist: true });
  try {
    await migrateToLatest(target);
    const tables = tablesInOrder(source);
    const db = target as unknown as AnyDb;
    const copied: Record<string, number> = {};
    // One read transaction: the rows of every table as of the same moment (WAL keeps writers going).
    source.prepare("begin").run();
    await db.transaction().execute(async (trx) => {
      // The ledger's rows are copied as they are: its triggers record nothing again (migration 0021).
      await sql`set local parrainly.ledger_copy = 'on'`.execute(trx);
      for (const table of tables) {
        const { n } = (await trx
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()) as { n: number };
        if (Number(n) > 0) throw new Error(`The PostgreSQL database already has rows in ${table}: copy only into an empty one.`);
      }
      for (const table of tables) {
        // A page at a time, by rowid: a table of millions of draws never sits in memory whole.
        const page = source.prepare(`select rowid as "${ROWID}", * from "${table}" where rowid > ? order by rowid limit ?`);
        let after = Number.MIN_SAFE_INTEGER;
        let count = 0;
        for (;;) {
          const read = page.all(after, ROWS_PER_READ) as Array<Record<string, unknown>>;
          if (read.length === 0) break;
          after = read[read.length - 1]![ROWID] as number;
          const rows = read.map(({ [ROWID]: _rowid, ...row }) => row);
          for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
            await trx
              .insertInto(table)
              .values(rows.slice(i, i + ROWS_PER_INSERT))
              .execute();
          }
          count += rows.length;
        }
        copied[table] = count;
        const hasId = (source.prepare(`select name from pragma_table_info(?)`).all(table) as Array<{ name: string }>).some(
          (c) => c.name === "id",
        );
        if (hasId && count) {
          await sql`select setval(pg_get_serial_sequence(${table}, 'id'), (select max(id) from ${sql.table(table)}))`.execute(
            trx,
          );
        }
      }
      if (uploadsDir) copied.logo_files = await copyLogoFiles(trx, uploadsDir);
    });
    return copied;
  } finally {
    source.close();
  }
}

/** Logo files a server before migration 0009 wrote, referenced by a platform and not yet in the database. */
async function copyLogoFiles(trx: AnyDb, uploadsDir: string): Promise<number> {
  const platforms = (await trx
    .selectFrom("platforms")
    .select(["custom_logo_light_url", "custom_logo_dark_url"])
    .execute()) as Array<Record<string, string | null>>;
  let count = 0;
  for (const url of platforms.flatMap((p) => [p.custom_logo_light_url, p.custom_logo_dark_url])) {
    const name = url?.startsWith("/uploads/") ? url.slice("/uploads/".length) : null;
    const type = name && LOGO_TYPES[path.extname(name).slice(1)];
    const file = name && path.join(uploadsDir, name);
    if (!name || !type || path.basename(name) !== name || !fs.existsSync(file!)) continue;
    const known = await trx.selectFrom("uploaded_files").select("name").where("name", "=", name).executeTakeFirst();
    if (known) continue;
    await trx
      .insertInto("uploaded_files")
      .values({ name, content_type: type, bytes: fs.readFileSync(file!), created_at: new Date().toISOString() })
      .execute();
    count++;
  }
  return count;
}
