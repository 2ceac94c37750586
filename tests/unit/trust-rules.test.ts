import { describe, expect, it } from "vitest";
import { failsPauseRule } from "~db/repositories/code-reports.server";
import { addressKey } from "~/utils/client-address.server";
import { buildAtomFeed, xml } from "~/features/trust/atom";

describe("addressKey", () => {
  it("counts IPv4 by address, IPv6 by its /64, IPv4-mapped IPv6 as IPv4", () => {
    expect(addressKey("203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("2001:db8:1:2::1")).toBe(addressKey("2001:db8:1:2:ffff:ffff:ffff:ffff"));
    expect(addressKey("2001:db8:1:2::1")).not.toBe(addressKey("2001:db8:1:3::1"));
    expect(addressKey("unknown")).toBe("unknown");
  });
});

describe("failsPauseRule", () => {
  const a = (outcome: "worked" | "failed", ip: string) => ({ outcome, ip_hash: ip });
  it("needs 3 failing addresses and 60 % failures", () => {
    expect(failsPauseRule([a("failed", "1"), a("failed", "2")])).toBe(false);
    expect(failsPauseRule([a("failed", "1"), a("failed", "1"), a("failed", "1")])).toBe(false);
    expect(failsPauseRule([a("failed", "1"), a("failed", "2"), a("failed", "3")])).toBe(true);
    const three = [a("failed", "1"), a("failed", "2"), a("failed", "3")];
    expect(failsPauseRule([...three, a("worked", "4"), a("worked", "5")])).toBe(true); // 60 %
    expect(failsPauseRule([...three, a("worked", "4"), a("worked", "5"), a("worked", "6")])).toBe(false); // 50 %
  });
});

describe("buildAtomFeed", () => {
  it("escapes every text and drops characters XML forbids", () => {
    expect(xml(`<a href="x">&'\u0001`)).toBe("&lt;a href=&quot;x&quot;&gt;&amp;&apos;");
    const feed = buildAtomFeed({
      id: "https://x.test/feeds/platforms.atom",
      title: "T & <T>",
      subtitle: "s",
      selfUrl: "https://x.test/feeds/platforms.atom",
      siteUrl: "https://x.test/",
      updated: "2026-01-01T00:00:00.000Z",
      language: "fr",
      authorName: "P",
      entries: [],
    });
    expect(feed).toContain('<title type="text">T &amp; &lt;T&gt;</title>');
    expect(feed.startsWith('<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom"')).toBe(true);
  });
});
