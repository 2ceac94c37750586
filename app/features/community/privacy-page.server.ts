import { getSettings } from "~db/repositories/settings.server";
import { CODE_VALIDITY_MONTHS } from "~db/repositories/codes.server";
import { RATE_LIMIT_WINDOW_MINUTES, RETENTION } from "~db/retention";

const AI_PROVIDER_NAMES: Record<string, string> = { anthropic: "Anthropic", openai: "OpenAI" };

/**
 * What the privacy page states, read where it is decided (decision 320): the publisher and host
 * from the settings the admin fills, every retention period from the list the retention jobs read
 * (db/retention.ts), whether expired codes are removed (enable_auto_cleanup), and the assistant's
 * provider. Empty publisher fields are said to be missing rather than left blank.
 */
export async function privacyFacts() {
  const settings = await getSettings();
  const given = (value: string) => value.trim() || null;
  return {
    publisher: {
      name: given(settings.publisher_name),
      email: given(settings.publisher_email),
      address: given(settings.publisher_address),
    },
    host: given(settings.host_details),
    aiProvider: AI_PROVIDER_NAMES[settings.default_ai_provider] ?? settings.default_ai_provider,
    autoCleanup: settings.enable_auto_cleanup === "true",
    periods: {
      codeMonths: CODE_VALIDITY_MONTHS,
      drawDays: RETENTION.drawDays,
      answerDays: RETENTION.answerDays,
      answerAddressDays: RETENTION.answerAddressDays,
      voteDays: RETENTION.voteDays,
      suggestionDays: RETENTION.suggestionDays,
      deletionRequestDays: RETENTION.deletionRequestDays,
      removalRequestDays: RETENTION.removalRequestDays,
      scoreDays: RETENTION.scoreDays,
      conversationDays: RETENTION.conversationDays,
      rateLimitMinutes: RATE_LIMIT_WINDOW_MINUTES,
      pseudonymKeyMonths: RETENTION.pseudonymKeyMonths,
      backupHours: RETENTION.backupHours,
    },
  };
}
