import { cachedRead } from "~db/read-cache.server";
import { lastWorkedByPlatform } from "~db/repositories/answer-freshness.server";
import { ANSWER_STATS, platformAnswerStats } from "~db/repositories/code-reports.server";
import { listActivePlatformsWithCounts } from "~db/repositories/code-counts.server";
import { listPlatformOffers } from "~db/repositories/platform-offers.server";
import { localizeOffer } from "./offer";

/**
 * What the site publishes about its platforms for search and AI engines (/api/platforms.json,
 * /llms.txt): counts, the 90-day answers and the share that worked, when a code last worked, the
 * offer in one language. Never a code: a code is given only by a draw, which keeps the rotation fair.
 * Each figure is an indexed read per active platform.
 */
export function publicPlatformData(siteUrl: string, language: string): Promise<PublicPlatformData> {
  // Kept up to a minute whatever the draws meanwhile, as the routes' Cache-Control announces
  // (decision 293); `generated_at` says when it was read.
  return cachedRead(`published:${siteUrl}:${language}`, "published", () => readPublicPlatformData(siteUrl, language));
}

async function readPublicPlatformData(siteUrl: string, language: string, now = new Date()) {
  const [platforms, lastWorked, offers] = await Promise.all([
    listActivePlatformsWithCounts(now),
    lastWorkedByPlatform(),
    listPlatformOffers(),
  ]);
  const offerOf = new Map(offers.map((o) => [o.platform_id, o]));
  const stats = await Promise.all(platforms.map((p) => platformAnswerStats(p.id, now)));
  return {
    site: siteUrl,
    language,
    generated_at: now.toISOString(),
    answers_window_days: ANSWER_STATS.days,
    share_shown_from_answers: ANSWER_STATS.minAnswers,
    platforms: platforms.map((p, i) => {
      const s = stats[i]!;
      const offer = localizeOffer(offerOf.get(p.id), language, now);
      return {
        slug: p.slug,
        name: p.name,
        url: `${siteUrl}/${encodeURIComponent(p.slug)}`,
        available_codes: p.available,
        answers_90_days: s.answers,
        worked_percent_90_days: s.answers >= ANSWER_STATS.minAnswers ? Math.round((s.worked * 100) / s.answers) : null,
        last_worked_at: lastWorked.get(p.id) ?? null,
        offer: offer
          ? {
              referee: offer.referee,
              referrer: offer.referrer,
              conditions: offer.conditions,
              steps: offer.steps,
              checked_on: offer.checkedOn,
              checked_on_over_90_days: offer.stale,
            }
          : null,
      };
    }),
  };
}

export type PublicPlatformData = Awaited<ReturnType<typeof readPublicPlatformData>>;

/** /llms.txt (the llmstxt.org shape: a title, a summary, then sections of links), written in English for machines. */
export function buildLlmsTxt(data: PublicPlatformData, siteName: string): string {
  const site = data.site;
  const lines = [
    `# ${siteName}`,
    "",
    `> ${siteName} is a free, anonymous referral-code sharing site. People share their referral codes for platforms (banks, brokers, cars, cashback) and visitors get one code per draw, served fairly: the code served the fewest times first, then the one served least recently. After a draw, visitors say whether the code worked; those answers are published below as freshness figures.`,
    "",
    `The site never publishes codes in bulk: a code is only given by a draw on the site, so every sharer gets a fair turn. What it does publish: for each platform, the codes available, the answers of the last ${data.answers_window_days} days and the share that worked (from ${data.share_shown_from_answers} answers), when an answer last said a code worked, and what the referral gives and how to claim it (as checked by the site's team, with the date).`,
    "",
    "## Data",
    "",
    `- [Platforms as JSON](${site}/api/platforms.json): every active platform with the figures above; \`?lng=fr|en|de|es\` picks the language of the offer texts (French when a text is missing in that language).`,
    `- [How codes are chosen](${site}/fairness): the fairness rule and the measured evenness per platform.`,
    `- [All platforms](${site}/platforms): the list, with available codes.`,
    `- [Platforms feed](${site}/feeds/platforms.atom): Atom, newest first.`,
    "",
    "## Platforms",
    "",
    ...data.platforms.map((p) => {
      const facts = [`${p.available_codes} codes available`];
      if (p.worked_percent_90_days !== null)
        facts.push(`${p.worked_percent_90_days}% of ${p.answers_90_days} answers worked (${data.answers_window_days} days)`);
      if (p.last_worked_at) facts.push(`last reported working ${p.last_worked_at}`);
      if (p.offer?.referee) facts.push(`new customers get: ${oneLine(p.offer.referee)}`);
      if (p.offer?.checked_on) facts.push(`offer checked on ${p.offer.checked_on}`);
      return `- [${oneLine(p.name)}](${p.url}): ${facts.join("; ")}`;
    }),
    "",
  ];
  return lines.join("\n");
}

/** Texts an admin wrote, kept on one line of the list (and without Markdown link brackets). */
function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, " ").replace(/[[\]]/g, "");
}
