import { describe, expect, it } from "vitest";
import { addressKey, networkKey, subscriberKey } from "../../server/address-key";
import { redactedPath } from "../../server/request-log";

describe("networkKey and subscriberKey (decisions 315, 316)", () => {
  it("an IPv6 /48 is one network and one subscriber, whatever its /64s; an address key reads the same", () => {
    const a = "2001:db8:1:1::5";
    const b = "2001:db8:1:ffff:1:2:3:4";
    expect(networkKey(a)).toBe("2001:db8:1::/48");
    expect(networkKey(b)).toBe(networkKey(a));
    expect(networkKey(addressKey(b))).toBe(networkKey(a));
    expect(subscriberKey(b)).toBe(subscriberKey(a));
    expect(networkKey("2001:db8:2::1")).not.toBe(networkKey(a));
  });

  it("IPv4: the network is the /24, the subscriber the address (mapped addresses too)", () => {
    expect(networkKey("203.0.113.7")).toBe("203.0.113.0/24");
    expect(networkKey("::ffff:203.0.113.9")).toBe("203.0.113.0/24");
    expect(subscriberKey("203.0.113.7")).toBe("203.0.113.7");
    expect(subscriberKey("203.0.113.8")).not.toBe(subscriberKey("203.0.113.7"));
    expect(networkKey("unknown")).toBe("unknown");
  });
});

describe("redactedPath", () => {
  it("hides owner tokens and draw tokens, keeps the rest", () => {
    const owner = "x".repeat(43);
    expect(redactedPath(`/my-code/${owner}`)).toBe("/my-code/[token]");
    expect(redactedPath(`/my-code/${owner}.data?_routes=x`)).toBe("/my-code/[token].data?_routes=x");
    expect(redactedPath("/tesla/get-code?draw=12.abcdefghijklmnopqrstuv&lng=en")).toBe("/tesla/get-code?draw=[token]&lng=en");
    expect(redactedPath(`/admin/login?redirectTo=%2Fmy-code%2F${owner}`)).toBe("/admin/login?redirectTo=%2Fmy-code%2F[token]");
    expect(redactedPath("/platforms?page=2")).toBe("/platforms?page=2");
  });
});
