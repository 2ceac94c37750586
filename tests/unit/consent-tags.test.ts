import { describe, expect, it } from "vitest";
import { analyticsConfig, cspSources, extendCsp, hasTags, parseAdUnit, publisherId } from "~/features/consent/tags";

const empty = { gtm_id: "", ga4_id: "", adsense_head: "", adsense_body: "", adsense_account_id: "" };

describe("analytics settings", () => {
  it("nothing set: no tag, no extra CSP host", () => {
    const config = analyticsConfig(empty);
    expect(hasTags(config)).toBe(false);
    expect(Object.values(cspSources(config)).flat()).toEqual([]);
  });

  it("ids must have Google's shape", () => {
    expect(analyticsConfig({ ...empty, gtm_id: "gtm-ab12" }).gtmId).toBe("GTM-AB12");
    expect(analyticsConfig({ ...empty, gtm_id: "GTM-1');alert(1)//" }).gtmId).toBeNull();
    expect(analyticsConfig({ ...empty, ga4_id: "G-XYZ" }).ga4Id).toBe("G-XYZ");
    expect(analyticsConfig({ ...empty, ga4_id: "UA-123-1" }).ga4Id).toBeNull();
  });

  it("AdSense: the publisher id from the head snippet (or the account id), the unit's attributes from the body snippet", () => {
    const head =
      '<script async src="https://pagead2.googlesyndication.com/pagead/js/adsbygoogle.js?client=ca-pub-1234567890"></script>';
    expect(analyticsConfig({ ...empty, adsense_head: head }).adsenseClient).toBe("ca-pub-1234567890");
    expect(
      analyticsConfig({ ...empty, adsense_head: "<script>x</script>", adsense_account_id: "pub-555555" }).adsenseClient,
    ).toBe("ca-pub-555555");
    expect(analyticsConfig({ ...empty, adsense_account_id: "pub-555555" }).adsenseClient).toBeNull();
    const unit = parseAdUnit(
      `<ins class="adsbygoogle" data-ad-client="ca-pub-1234567890" data-ad-slot="123" data-ad-format="auto" data-ad-layout="in-article" onmouseover="evil()"></ins>`,
      null,
    );
    expect(unit).toEqual({ client: "ca-pub-1234567890", slot: "123", format: "auto", layout: "in-article" });
    expect(parseAdUnit(`<ins class="adsbygoogle" data-ad-slot="12"></ins>`, "ca-pub-999999")?.client).toBe("ca-pub-999999");
    expect(parseAdUnit(`<ins class="adsbygoogle" data-ad-slot="x&quot;onload"></ins>`, "ca-pub-999999")).toBeNull();
    expect(parseAdUnit("<div>not an ad</div>", "ca-pub-999999")).toBeNull();
  });

  it("ads.txt id", () => {
    expect(publisherId("ca-pub-1234567890123456")).toBe("pub-1234567890123456");
    expect(publisherId("pub-123456")).toBe("pub-123456");
    expect(publisherId("")).toBeNull();
  });

  it("extendCsp adds sources to the right directives, once, and creates missing ones", () => {
    const policy = "default-src 'self'; script-src 'self' 'nonce-x'; connect-src 'self'";
    const sources = cspSources(analyticsConfig({ ...empty, gtm_id: "GTM-A", ga4_id: "G-B" }));
    const extended = extendCsp(policy, sources);
    expect(extended).toBe(
      "default-src 'self'; script-src 'self' 'nonce-x' https://www.googletagmanager.com; " +
        "connect-src 'self' https://www.googletagmanager.com https://*.google-analytics.com https://*.analytics.google.com https://*.googletagmanager.com; " +
        "frame-src https://www.googletagmanager.com",
    );
    expect(extendCsp(extended, sources)).toBe(extended);
  });
});
