import { getDb, type DB } from "../client.server";

/** Stores an uploaded file's bytes under its public name; refuses a name already taken. */
export async function insertUploadedFile(
  file: { name: string; contentType: string; bytes: Uint8Array },
  db: DB = getDb(),
): Promise<void> {
  await db
    .insertInto("uploaded_files")
    // A Buffer: what both drivers bind as a blob (better-sqlite3 refuses a bare Uint8Array).
    .values({
      name: file.name,
      content_type: file.contentType,
      bytes: Buffer.from(file.bytes),
      created_at: new Date().toISOString(),
    })
    .execute();
}

/** One stored file by its public name, or undefined. */
export async function getUploadedFile(
  name: string,
  db: DB = getDb(),
): Promise<{ contentType: string; bytes: Uint8Array } | undefined> {
  const row = await db.selectFrom("uploaded_files").select(["content_type", "bytes"]).where("name", "=", name).executeTakeFirst();
  return row && { contentType: row.content_type, bytes: row.bytes };
}

/** Removes a stored file; an unknown name is not an error. */
export async function deleteUploadedFile(name: string, db: DB = getDb()): Promise<void> {
  await db.deleteFrom("uploaded_files").where("name", "=", name).execute();
}
