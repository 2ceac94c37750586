import { describe, expect, it } from "vitest";
import { freshNonce } from "../../server/security-headers";

describe("freshNonce (CSP nonces read from a pool of random bytes)", () => {
  it("hands out 16 random bytes each time, never the same twice, across many refills of the pool", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2_000; i++) {
      const nonce = freshNonce();
      expect(Buffer.from(nonce, "base64")).toHaveLength(16);
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      seen.add(nonce);
    }
    expect(seen.size).toBe(2_000);
  });
});
