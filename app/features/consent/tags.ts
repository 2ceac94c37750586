/**
 * What the analytics and ads settings turn on, read defensively: ids must have Google's shape and
 * the AdSense snippets are never pasted into the page as HTML. From `adsense_head` we take the
 * publisher id of the loader script; from `adsense_body` the data-ad-* attributes of the
 * `<ins class="adsbygoogle">` unit. We render those ourselves, with the CSP nonce.
 */
export interface AnalyticsSettings {
  gtm_id: string;
  ga4_id: string;
  adsense_head: string;
  adsense_body: string;
  adsense_account_id: string;
}

export interface AdUnit {
  client: string;
  slot: string;
  format?: string;
  layout?: string;
  layoutKey?: string;
  fullWidthResponsive?: string;
}

export interface AnalyticsConfig {
  gtmId: string | null;
  ga4Id: string | null;
  /** `ca-pub-…` of the AdSense loader script (from adsense_head). */
  adsenseClient: string | null;
  adUnit: AdUnit | null;
}

const GTM = /^GTM-[A-Z0-9]{1,20}$/;
const GA4 = /^G-[A-Z0-9]{1,20}$/;
const PUB = /(?:ca-)?pub-(\d{6,24})/;

/** `ca-pub-123…` from anything that contains a publisher id. */
function publisherClient(value: string): string | null {
  const match = PUB.exec(value);
  return match ? `ca-pub-${match[1]}` : null;
}

/** `pub-123…` as ads.txt writes it. */
export function publisherId(value: string): string | null {
  const match = PUB.exec(value);
  return match ? `pub-${match[1]}` : null;
}

function attribute(html: string, name: string, pattern: RegExp): string | undefined {
  const match = new RegExp(`${name}\\s*=\\s*["']([^"']*)["']`, "i").exec(html);
  const value = match?.[1]?.trim();
  return value && pattern.test(value) ? value : undefined;
}

export function parseAdUnit(snippet: string, fallbackClient: string | null): AdUnit | null {
  if (!/adsbygoogle/.test(snippet)) return null;
  const slot = attribute(snippet, "data-ad-slot", /^\d{1,20}$/);
  const client = publisherClient(attribute(snippet, "data-ad-client", /^ca-pub-\d{6,24}$/) ?? "") ?? fallbackClient;
  if (!slot || !client) return null;
  return {
    client,
    slot,
    format: attribute(snippet, "data-ad-format", /^[a-z, -]{1,40}$/),
    layout: attribute(snippet, "data-ad-layout", /^[a-z-]{1,40}$/),
    layoutKey: attribute(snippet, "data-ad-layout-key", /^[\w+-]{1,40}$/),
    fullWidthResponsive: attribute(snippet, "data-full-width-responsive", /^(true|false)$/),
  };
}

export function analyticsConfig(settings: AnalyticsSettings): AnalyticsConfig {
  const gtm = settings.gtm_id.trim().toUpperCase();
  const ga4 = settings.ga4_id.trim().toUpperCase();
  const accountClient = publisherClient(settings.adsense_account_id);
  const head = settings.adsense_head.trim();
  const adsenseClient = head ? (publisherClient(head) ?? accountClient) : null;
  return {
    gtmId: GTM.test(gtm) ? gtm : null,
    ga4Id: GA4.test(ga4) ? ga4 : null,
    adsenseClient,
    adUnit: settings.adsense_body.trim() ? parseAdUnit(settings.adsense_body, adsenseClient ?? accountClient) : null,
  };
}

/** Something would load after consent: the banner is needed. */
export function hasTags(config: AnalyticsConfig): boolean {
  return !!(config.gtmId || config.ga4Id || config.adsenseClient || config.adUnit);
}

type Directive = "script-src" | "connect-src" | "frame-src" | "img-src";

/** The hosts each tag needs, per Google's CSP guidance for GTM, GA4 and AdSense. */
export function cspSources(config: AnalyticsConfig): Record<Directive, string[]> {
  const sources: Record<Directive, Set<string>> = {
    "script-src": new Set(),
    "connect-src": new Set(),
    "frame-src": new Set(),
    "img-src": new Set(),
  };
  const add = (directive: Directive, ...hosts: string[]) => hosts.forEach((h) => sources[directive].add(h));
  if (config.gtmId) {
    add("script-src", "https://www.googletagmanager.com");
    add("connect-src", "https://www.googletagmanager.com", "https://*.google-analytics.com", "https://*.analytics.google.com");
    add("frame-src", "https://www.googletagmanager.com");
  }
  if (config.ga4Id) {
    add("script-src", "https://www.googletagmanager.com");
    add("connect-src", "https://*.google-analytics.com", "https://*.analytics.google.com", "https://*.googletagmanager.com");
  }
  if (config.adsenseClient || config.adUnit) {
    add(
      "script-src",
      "https://pagead2.googlesyndication.com",
      "https://partner.googleadservices.com",
      "https://tpc.googlesyndication.com",
      "https://www.googletagservices.com",
      "https://adservice.google.com",
      "https://*.adtrafficquality.google",
    );
    add("connect-src", "https://pagead2.googlesyndication.com", "https://*.adtrafficquality.google");
    add(
      "frame-src",
      "https://googleads.g.doubleclick.net",
      "https://tpc.googlesyndication.com",
      "https://www.google.com",
      "https://*.adtrafficquality.google",
    );
  }
  return Object.fromEntries(Object.entries(sources).map(([k, v]) => [k, [...v]])) as Record<Directive, string[]>;
}

/** Adds sources to a Content-Security-Policy header's directives (a directive missing is created). */
export function extendCsp(policy: string, sources: Partial<Record<string, string[]>>): string {
  const directives = policy
    .split(";")
    .map((d) => d.trim())
    .filter(Boolean);
  for (const [name, hosts] of Object.entries(sources)) {
    if (!hosts?.length) continue;
    const index = directives.findIndex((d) => d === name || d.startsWith(`${name} `));
    if (index >= 0) {
      const present = new Set(directives[index]!.split(/\s+/));
      directives[index] = [directives[index], ...hosts.filter((h) => !present.has(h))].join(" ");
    } else directives.push([name, ...hosts].join(" "));
  }
  return directives.join("; ");
}
