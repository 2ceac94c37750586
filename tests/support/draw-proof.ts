import crypto from "node:crypto";
import type { TestDb } from "./fixtures";

/**
 * What the draw page's script computes for the soft bound's step (decision 350), as a determined
 * script would: the first nonce whose SHA-256 with the challenge starts with the challenge's zero bits.
 */
export function solveDrawProof(challenge: string): string {
  const bits = Number(challenge.split(".")[2]);
  for (let nonce = 0; ; nonce++) {
    const digest = crypto.createHash("sha256").update(`${challenge}:${nonce}`).digest();
    if (digest.readUInt32BE(0) >>> (32 - bits) === 0) return String(nonce);
  }
}

/** How many draws the database has logged (one `random_requests` row a draw). */
export async function countDraws(db: TestDb): Promise<number> {
  const row = await db
    .selectFrom("random_requests")
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
