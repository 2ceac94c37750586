import { describe, expect, it } from "vitest";
import { nextMonthStart, verdictOn, type Answer } from "~db/report-rules";
import { addressKey } from "../../server/address-key";
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

describe("verdictOn (pause, monthly cap, hints)", () => {
  const a = (outcome: "worked" | "failed", ip: string, reason: Answer["reason"] = null): Answer => ({
    outcome,
    ip_hash: ip,
    reason,
  });
  it("needs 3 failing addresses and 60 % failures", () => {
    expect(verdictOn([a("failed", "1"), a("failed", "2")])).toBe(null);
    expect(verdictOn([a("failed", "1"), a("failed", "1"), a("failed", "1")])).toBe(null);
    expect(verdictOn([a("failed", "1"), a("failed", "2"), a("failed", "3")])).toBe("pause");
    const three = [a("failed", "1"), a("failed", "2"), a("failed", "3")];
    expect(verdictOn([...three, a("worked", "4"), a("worked", "5")])).toBe("pause"); // 60 %
    expect(verdictOn([...three, a("worked", "4"), a("worked", "5"), a("worked", "6")])).toBe(null); // 50 %
  });
  it("counts the drawing network when it is known: three addresses of one network are one (decision 315)", () => {
    const n = (ip: string, network: string): Answer => ({ outcome: "failed", ip_hash: ip, reason: null, network_hash: network });
    expect(verdictOn([n("1", "net-a"), n("2", "net-a"), n("3", "net-a")])).toBe(null);
    expect(verdictOn([n("1", "net-a"), n("1", "net-b"), n("1", "net-c")])).toBe("pause");
  });
  it("expired and other pause; limit-reached at the same edge caps; the hint reasons never count against a code", () => {
    const r = (reason: Answer["reason"]) => [a("failed", "1", reason), a("failed", "2", reason), a("failed", "3", reason)];
    expect(verdictOn(r("expired"))).toBe("pause");
    expect(verdictOn(r("other"))).toBe("pause");
    expect(verdictOn(r("limit-reached"))).toBe("cap");
    expect(verdictOn(r("wrong-region"))).toBe(null);
    expect(verdictOn(r("conditions-not-met"))).toBe(null);
    // Hint answers still count as answers: 3 limit-reached of 6 answers is 50 %, under the edge.
    expect(verdictOn([...r("limit-reached"), ...r("wrong-region")])).toBe(null);
    expect(verdictOn([...r("limit-reached"), a("failed", "4", "conditions-not-met"), a("worked", "5")])).toBe("cap");
    // A mix of failures: the cap when at least half of them say "limit reached", otherwise the pause.
    expect(verdictOn([a("failed", "1", "limit-reached"), a("failed", "2", "expired"), a("failed", "3", "limit-reached")])).toBe(
      "cap",
    );
    expect(verdictOn([a("failed", "1", "expired"), a("failed", "2", "limit-reached"), a("failed", "3", "other")])).toBe("pause");
  });
  it("the cap ends on the first day of the next month, UTC (December rolls into January)", () => {
    expect(nextMonthStart(new Date("2026-11-25T15:00:00Z")).toISOString()).toBe("2026-12-01T00:00:00.000Z");
    expect(nextMonthStart(new Date("2026-12-31T23:59:59Z")).toISOString()).toBe("2027-01-01T00:00:00.000Z");
    // 23:30 on 31 January in UTC-2 is already February in UTC: back on 1 March.
    expect(nextMonthStart(new Date("2027-01-31T23:30:00-02:00")).toISOString()).toBe("2027-03-01T00:00:00.000Z");
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
