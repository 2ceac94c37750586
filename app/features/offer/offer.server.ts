import { platformHintCounts } from "~db/repositories/answer-freshness.server";
import { ANSWER_STATS } from "~db/repositories/code-reports.server";
import { getPlatformOffer } from "~db/repositories/platform-offers.server";
import { localizeOffer } from "./offer";

/**
 * A platform's offer in the visitor's language (French where a text is missing; null when there is
 * nothing to show) and the hints of recent answers (wrong region, conditions not met).
 */
export async function loadOfferSection(platformId: number, language: string, now = new Date()) {
  const since = new Date(now.getTime() - ANSWER_STATS.days * 24 * 60 * 60 * 1000).toISOString();
  const [row, hints] = await Promise.all([getPlatformOffer(platformId), platformHintCounts(platformId, since)]);
  return { offer: localizeOffer(row, language, now), hints };
}

/**
 * schema.org for the offer on a platform's page: a HowTo (how to claim, with its steps) whose
 * `offers` say what each side gets, and `dateModified` the day the offer was last checked.
 */
export function offerLd(
  offer: NonNullable<ReturnType<typeof localizeOffer>>,
  input: { name: string; url: string; language: string; title: string },
) {
  const offers = [offer.referee, offer.referrer]
    .filter((text): text is string => Boolean(text))
    .map((description) => ({ "@type": "Offer", description, url: input.url }));
  return {
    "@context": "https://schema.org",
    "@type": "HowTo",
    name: input.title,
    inLanguage: input.language,
    url: input.url,
    ...(offer.conditions ? { description: offer.conditions } : {}),
    ...(offer.steps.length ? { step: offer.steps.map((text, i) => ({ "@type": "HowToStep", position: i + 1, text })) } : {}),
    ...(offers.length ? { offers } : {}),
    ...(offer.checkedOn ? { dateModified: offer.checkedOn } : {}),
  };
}
