import { describe, expect, it } from "vitest";
import { checkAddress, hostKey, ipLiteral, isPrivateHostname, parseAllowedHosts } from "~/features/sitemap-audit/address-rules";

describe("audit address rules", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.0.0.2", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "linkLocal"],
    ["100.64.0.1", "carrierGradeNat"],
    ["100.127.255.254", "carrierGradeNat"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["0.0.0.0", "unspecified"],
    ["255.255.255.255", "broadcast"],
    ["192.0.2.1", "reserved"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fe80::1", "linkLocal"],
    ["fc00::1", "uniqueLocal"],
    ["fd12:3456::1", "uniqueLocal"],
    ["fdaa::2", "flyPrivate"],
    ["fdaa:0:1234::3", "flyPrivate"],
    ["ff02::1", "multicast"],
    ["::ffff:127.0.0.1", "ipv4Mapped"],
    ["::ffff:7f00:1", "ipv4Mapped"],
    ["::ffff:8.8.8.8", "ipv4Mapped"],
    ["[::ffff:169.254.169.254]", "ipv4Mapped"],
    ["64:ff9b::7f00:1", "rfc6052"],
    ["2002:7f00:1::", "6to4"],
    ["2001::1", "teredo"],
    ["2001:db8::1", "reserved"],
    ["fe80::1%eth0", "linkLocal"],
    ["not-an-ip", "invalid"],
  ])("refuses %s (%s)", (address, range) => {
    expect(checkAddress(address)).toEqual({ ok: false, range });
  });

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "172.32.0.1",
    "100.128.0.1",
    "93.184.215.14",
    "2606:4700:4700::1111",
    "[2a00:1450:4007:80e::200e]",
  ])("allows public %s", (address) => {
    expect(checkAddress(address)).toEqual({ ok: true });
  });

  it("private names of Fly's network", () => {
    for (const name of ["app.internal", "APP.INTERNAL.", "x.flycast", "internal", "flycast"])
      expect(isPrivateHostname(name)).toBe(true);
    for (const name of ["internal.example.com", "flycast.io", "example.com", "localhost"])
      expect(isPrivateHostname(name)).toBe(false);
  });

  it("IP literals as URL hostnames spell them (the URL parser normalises 0x7f.1 and 2130706433)", () => {
    expect(ipLiteral(new URL("http://0x7f.1/").hostname)).toBe("127.0.0.1");
    expect(ipLiteral(new URL("http://2130706433/").hostname)).toBe("127.0.0.1");
    expect(ipLiteral(new URL("http://[::ffff:127.0.0.1]/").hostname)).toBe("::ffff:7f00:1");
    expect(ipLiteral("example.com")).toBeNull();
  });

  it("allowed hosts compare host and effective port", () => {
    const allowed = parseAllowedHosts(" localhost:4000 , 127.0.0.1:80,");
    expect(allowed.has(hostKey(new URL("http://LOCALHOST:4000/x")))).toBe(true);
    expect(allowed.has(hostKey(new URL("http://127.0.0.1/")))).toBe(true);
    expect(allowed.has(hostKey(new URL("https://127.0.0.1/")))).toBe(false);
    expect(allowed.has(hostKey(new URL("http://localhost:4001/")))).toBe(false);
    expect(parseAllowedHosts(undefined).size).toBe(0);
  });
});
