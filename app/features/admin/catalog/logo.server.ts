import fs from "node:fs/promises";
import path from "node:path";
import { deleteUploadedFile, getUploadedFile, insertUploadedFile } from "~db/repositories/uploaded-files.server";
import { getEnv } from "~/utils/env.server";
import { MAX_UPLOAD_BYTES } from "../forms.server";

/** Logos are small pictures; anything bigger is refused before it reaches the disk (the admin forms' upload cap). */
export const MAX_LOGO_BYTES = MAX_UPLOAD_BYTES;

export type ImageKind = { ext: "png" | "jpg" | "webp"; type: string };

/** The real type of an upload, read from its first bytes (never from its name or declared type). */
export function detectImageKind(bytes: Uint8Array): ImageKind | null {
  const starts = (sig: number[], offset = 0) => sig.every((b, i) => bytes[offset + i] === b);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { ext: "png", type: "image/png" };
  if (starts([0xff, 0xd8, 0xff])) return { ext: "jpg", type: "image/jpeg" };
  // RIFF....WEBP
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return { ext: "webp", type: "image/webp" };
  return null;
}

function uploadsDir(): string {
  return path.resolve(getEnv().UPLOADS_DIR);
}

/**
 * Stores the logo as `<slug>-<variant>-<timestamp>.<ext>` in the database (every server process
 * behind the proxy serves it, and backups carry it) and answers its public URL.
 */
export async function storeLogo(slug: string, variant: string, kind: ImageKind, bytes: Uint8Array): Promise<string> {
  const name = `${slug}-${variant}-${Date.now()}.${kind.ext}`;
  await insertUploadedFile({ name, contentType: kind.type, bytes });
  return `/uploads/${name}`;
}

/**
 * Removes a logo we stored earlier: its row, or the file on UPLOADS_DIR that a server before
 * migration 0009 wrote. Links elsewhere and missing files are left alone.
 */
export async function removeStoredLogo(url: string | null | undefined): Promise<void> {
  if (!url?.startsWith("/uploads/")) return;
  const name = path.basename(url);
  if (name !== url.slice("/uploads/".length)) return;
  await deleteUploadedFile(name);
  await fs.rm(path.join(uploadsDir(), name), { force: true }).catch(() => {});
}

/** A stored logo by its file name, for `/uploads/<name>`; null when there is none. */
export async function readStoredLogo(name: string): Promise<{ contentType: string; bytes: Uint8Array } | null> {
  return (await getUploadedFile(name)) ?? null;
}
