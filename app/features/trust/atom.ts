/** A minimal, valid Atom 1.0 feed (RFC 4287). Every text goes through `xml()`. */

interface AtomEntry {
  id: string;
  title: string;
  link: string;
  updated: string;
  published: string;
  summary: string;
}

export interface AtomFeed {
  id: string;
  title: string;
  subtitle: string;
  selfUrl: string;
  siteUrl: string;
  updated: string;
  language: string;
  authorName: string;
  entries: AtomEntry[];
}

export function xml(text: string): string {
  return (
    text
      // Characters XML 1.0 forbids (control characters other than tab, newline, carriage return).
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "")
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;")
      .replace(/'/g, "&apos;")
  );
}

export function buildAtomFeed(feed: AtomFeed): string {
  const entries = feed.entries.map(
    (e) => `  <entry>
    <id>${xml(e.id)}</id>
    <title type="text">${xml(e.title)}</title>
    <link rel="alternate" type="text/html" href="${xml(e.link)}"/>
    <published>${xml(e.published)}</published>
    <updated>${xml(e.updated)}</updated>
    <summary type="text">${xml(e.summary)}</summary>
  </entry>`,
  );
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${xml(feed.language)}">
  <id>${xml(feed.id)}</id>
  <title type="text">${xml(feed.title)}</title>
  <subtitle type="text">${xml(feed.subtitle)}</subtitle>
  <link rel="self" type="application/atom+xml" href="${xml(feed.selfUrl)}"/>
  <link rel="alternate" type="text/html" href="${xml(feed.siteUrl)}"/>
  <updated>${xml(feed.updated)}</updated>
  <author><name>${xml(feed.authorName)}</name></author>
${entries.join("\n")}${entries.length ? "\n" : ""}</feed>
`;
}
