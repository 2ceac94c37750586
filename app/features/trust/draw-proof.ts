/**
 * The draw's browser proof (decision 350), the parts the server and the page share: the form's
 * field names and the proof of work's check. The page looks for a `nonce` such that
 * SHA-256(`{challenge}:{nonce}`) starts with the challenge's number of zero bits.
 */
export const DRAW_PROOF_FIELD = "draw-proof";
export const DRAW_PROOF_NONCE_FIELD = "draw-proof-nonce";

/** Whether `digest` starts with `bits` zero bits. */
export function hasLeadingZeroBits(digest: Uint8Array, bits: number): boolean {
  let left = bits;
  for (const byte of digest) {
    if (left <= 0) return true;
    if (left >= 8) {
      if (byte !== 0) return false;
      left -= 8;
    } else return byte >> (8 - left) === 0;
  }
  return left <= 0;
}

export type DrawProofReason = "needed" | "wait" | "stale" | "replayed" | "captcha" | "wrong";

/** What the draw page shows instead of a result: the step, and the form's fields. */
export interface DrawProofView {
  reason: DrawProofReason;
  challenge: string;
  /** The captcha's site key, when it is the proof asked. */
  siteKey: string | null;
  bits: number;
  waitSeconds: number;
}
