import type { LoaderFunctionArgs } from "@remix-run/node";
import { listNewestPlatforms } from "~db/repositories/fairness.server";
import { platformDescription } from "~db/repositories/platforms.server";
import { buildAtomFeed } from "~/features/trust/atom";
import { getLanguage, getT } from "~/i18n/i18next.server";
import { getEnv } from "~/utils/env.server";
import { SITE_NAME } from "~/utils/meta";

/** Feed entries: the newest active platforms. Never codes: a feed of codes would skip the rotation. */
const FEED_SIZE = 50;
/** When the feed has no entry yet. */
const EPOCH = "2025-01-01T00:00:00.000Z";

export async function loader({ request }: LoaderFunctionArgs) {
  const [t, language, platforms] = await Promise.all([
    getT(request, "trust"),
    getLanguage(request),
    listNewestPlatforms(FEED_SIZE),
  ]);
  const site = getEnv().SITE_URL;
  const host = new URL(site).hostname;
  const selfUrl = `${site}/feeds/platforms.atom`;
  const body = buildAtomFeed({
    id: selfUrl,
    title: t("feed.title", { site: SITE_NAME }),
    subtitle: t("feed.subtitle"),
    selfUrl,
    siteUrl: `${site}/`,
    updated: platforms[0]?.created_at ?? EPOCH,
    language,
    authorName: SITE_NAME,
    entries: platforms.map((p) => ({
      // Stable across renames of the slug: the row id, in a tag URI (RFC 4151).
      id: `tag:${host},2025:platform:${p.id}`,
      title: p.name,
      link: `${site}/${encodeURIComponent(p.slug)}`,
      published: p.created_at,
      updated: p.created_at,
      summary: platformDescription(p, language) || t("feed.entrySummary", { name: p.name }),
    })),
  });
  return new Response(body, {
    headers: {
      "Content-Type": "application/atom+xml; charset=utf-8",
      "Cache-Control": "public, max-age=600",
      // Titles and summaries follow the visitor's language.
      Vary: "Cookie, Accept-Language",
    },
  });
}
