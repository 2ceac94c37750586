import { afterEach, describe, expect, it } from "vitest";
import { hashPassword } from "../../db/repositories/users.server";

describe("scrypt's cost for new password hashes", () => {
  const before = process.env.PASSWORD_HASH_COST;
  afterEach(() => {
    if (before === undefined) delete process.env.PASSWORD_HASH_COST;
    else process.env.PASSWORD_HASH_COST = before;
  });

  it("is OWASP's N=2^14, r=8, p=5 unless PASSWORD_HASH_COST lowers it (test servers: 2^10)", async () => {
    delete process.env.PASSWORD_HASH_COST;
    expect(await hashPassword("a long passphrase")).toMatch(/^scrypt\$16384\$8\$5\$/);
    process.env.PASSWORD_HASH_COST = "10";
    expect(await hashPassword("a long passphrase")).toMatch(/^scrypt\$1024\$8\$5\$/);
  });
});
