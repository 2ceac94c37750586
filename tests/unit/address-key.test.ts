import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/paths";
import { addressKey, networkOf } from "../../server/address-key";

/** Every app source file, with its path from the repository root. */
function sources(dir = path.join(ROOT, "app")): Array<{ file: string; text: string }> {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.tsx?$/.test(entry.name) ? [{ file: path.relative(ROOT, full), text: fs.readFileSync(full, "utf8") }] : [];
  });
}

describe("one address key for every limit", () => {
  it("the raw address is read in one module, and leaves it only for the captcha check, a key or a network's pseudonym", () => {
    const files = sources();
    const readers = files.filter((f) => /context\.clientIp\b/.test(f.text)).map((f) => f.file);
    expect(readers).toEqual(["app/utils/client-address.server.ts"]);
    const rawUses = files.flatMap((f) =>
      f.text
        .split("\n")
        .filter((line) => line.includes("rawClientAddress(") && !line.includes("function rawClientAddress"))
        .map((line) => `${f.file}: ${line.trim()}`),
    );
    expect(rawUses.length).toBeGreaterThan(0);
    // Besides the captcha check, only into a key (addressKey) or a network's pseudonym (/48, /24:
    // subscriberKey, networkHashOf, and the draws cookie's binding, which takes the network's).
    for (const use of rawUses)
      expect(use).toMatch(
        /verifyCaptcha\(|addressKey\(rawClientAddress\(context\)\)|subscriberKey\(rawClientAddress\(context\)\)|networkHashOf\(rawClientAddress\(context\)\)|bindDrawCookie\(.*rawClientAddress\(context\)\)/,
      );
  });

  it("every limit keyed by the client is keyed by addressKeyOf", () => {
    const calls = sources().flatMap((f) =>
      [...f.text.matchAll(/(?:hitRateLimit|isRateLimited|claimLoginAttempt)\(([^;]*?)\)/g)].map((m) => `${f.file}: ${m[1]}`),
    );
    expect(calls.length).toBeGreaterThan(5);
    for (const call of calls) expect(call).not.toMatch(/clientIp|rawClientAddress|ipHash|remoteAddress/);
  });

  it("the server's own cap on connections per address counts an IPv6 /64 as one address too", () => {
    const server = fs.readFileSync(path.join(ROOT, "server", "http-server.ts"), "utf8");
    const reads = server.split("\n").filter((line) => line.includes("remoteAddress"));
    expect(reads.length).toBeGreaterThan(0);
    for (const line of reads) expect(line).toMatch(/addressKey\(socket\.remoteAddress/);
  });
});

describe("networkOf (the draw's daily bounds, decision 312)", () => {
  it("gives an IPv6 /64 key its /48 and an IPv4 address its /24; anything else none", () => {
    expect(networkOf(addressKey("2001:db8:abcd:12::1"))).toEqual({ kind: "ipv6-48", key: "2001:db8:abcd::/48" });
    expect(networkOf(addressKey("198.51.100.7"))).toEqual({ kind: "ipv4-24", key: "198.51.100.0/24" });
    expect(networkOf(addressKey("::ffff:198.51.100.7"))).toEqual({ kind: "ipv4-24", key: "198.51.100.0/24" });
    expect(networkOf("not-an-address")).toBeNull();
  });
});
