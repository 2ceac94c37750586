import type { LoaderFunctionArgs } from "@remix-run/node";
import { listNewestPlatforms } from "~db/repositories/fairness.server";
import { platformDescription } from "~db/repositories/platforms.server";
import { ledgerHeads, nextDay } from "~db/repositories/ledger.server";
import { buildAtomFeed } from "~/features/trust/atom";
import { getLanguage, getT } from "~/i18n/i18next.server";
import { getEnv } from "~/utils/env.server";
import { languageUrl, SITE_NAME } from "~/utils/meta";
import { withDatabaseNet } from "~/utils/failures.server";

/** Feed entries: the newest active platforms. Never codes: a feed of codes would skip the rotation. */
const FEED_SIZE = 50;
/** When the feed has no entry yet. */
const EPOCH = "2025-01-01T00:00:00.000Z";

export const loader = withDatabaseNet(async function loader({ request }: LoaderFunctionArgs) {
  const [t, language, platforms] = await Promise.all([
    getT(request, "trust"),
    getLanguage(request),
    listNewestPlatforms(FEED_SIZE),
  ]);
  const env = getEnv();
  const site = env.SITE_URL;
  const host = new URL(site).hostname;
  // Each platform's last closed day of the public ledger and its SHA-256 (issue 61): feed readers
  // keep copies of the head hashes that we could not rewrite.
  const heads = await ledgerHeads(env.SESSION_SECRET, new Date(), { slugs: platforms.map((p) => p.slug) });
  const ledgerEntries = heads.flatMap((head) => {
    if (!head.day || !head.sha256) return [];
    const closedAt = `${nextDay(head.day)}T00:00:00.000Z`;
    return [
      {
        id: `tag:${host},2025:ledger:${head.platform}:${head.day}${language === "fr" ? "" : `:${language}`}`,
        title: t("ledger.feedTitle", { platform: head.platform, day: head.day }),
        link: `${site}/fairness/ledger/${encodeURIComponent(head.platform)}/${head.day}.jsonl`,
        published: closedAt,
        updated: closedAt,
        summary: t("ledger.feedSummary", { platform: head.platform, day: head.day, sha: head.sha256 }),
      },
    ];
  });
  // One feed per language, on its own URL like the pages (decision 220): it names itself and links
  // that language's pages.
  const selfUrl = languageUrl(`${site}/feeds/platforms.atom`, language);
  const body = buildAtomFeed({
    id: selfUrl,
    title: t("feed.title", { site: SITE_NAME }),
    subtitle: t("feed.subtitle"),
    selfUrl,
    siteUrl: languageUrl(`${site}/`, language),
    updated: [platforms[0]?.created_at ?? EPOCH, ...ledgerEntries.map((e) => e.updated)].sort().at(-1)!,
    language,
    authorName: SITE_NAME,
    entries: [
      ...ledgerEntries,
      ...platforms.map((p) => ({
        // Stable across renames of the slug: the row id, in a tag URI (RFC 4151); one per language
        // version (French keeps the id it always had).
        id: `tag:${host},2025:platform:${p.id}${language === "fr" ? "" : `:${language}`}`,
        title: p.name,
        link: languageUrl(`${site}/${encodeURIComponent(p.slug)}`, language),
        published: p.created_at,
        updated: p.created_at,
        summary: platformDescription(p, language) || t("feed.entrySummary", { name: p.name }),
      })),
    ],
  });
  return new Response(body, {
    headers: {
      "Content-Type": "application/atom+xml; charset=utf-8",
      "Cache-Control": "public, max-age=600",
    },
  });
});
