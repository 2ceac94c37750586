import { getSettings } from "~db/repositories/settings.server";
import { tokensCountedOn } from "~db/repositories/assistant.server";
import { getEnv } from "~/utils/env.server";
import { isProviderId, PROVIDERS, type ProviderId } from "./types";

const DEFAULT_MODELS: Record<ProviderId, string> = {
  anthropic: "claude-sonnet-5-5",
  openai: "gpt-4.1-mini",
};

/** The variable that holds each provider's key, named to the admin when it is missing. */
const KEY_VARIABLES: Record<ProviderId, string> = {
  anthropic: "ANTHROPIC_API_KEY",
  openai: "OPENAI_API_KEY",
};

export interface ProviderConfig {
  id: ProviderId;
  apiKey: string | null;
  baseUrl: string | null;
  model: string;
}

export function providerConfig(id: ProviderId): ProviderConfig {
  const env = getEnv();
  if (id === "anthropic") {
    return {
      id,
      apiKey: env.ANTHROPIC_API_KEY?.trim() || null,
      baseUrl: env.ANTHROPIC_BASE_URL ?? null,
      model: env.ANTHROPIC_MODEL?.trim() || DEFAULT_MODELS.anthropic,
    };
  }
  return {
    id,
    apiKey: env.OPENAI_API_KEY?.trim() || null,
    baseUrl: env.OPENAI_BASE_URL ?? null,
    model: env.OPENAI_MODEL?.trim() || DEFAULT_MODELS.openai,
  };
}

/** Each provider, whether it has a key, and its model: what the page shows. */
export function providerStatuses() {
  return PROVIDERS.map((id) => {
    const config = providerConfig(id);
    return { id, configured: config.apiKey !== null, model: config.model, keyVariable: KEY_VARIABLES[id] };
  });
}

/** The setting's provider; its older value `lovable` (the former hosted gateway) reads as anthropic. */
export async function defaultProvider(): Promise<ProviderId> {
  const value = (await getSettings()).default_ai_provider.trim().toLowerCase();
  return isProviderId(value) ? value : "anthropic";
}

/** The budget's day: YYYY-MM-DD in UTC. */
export function utcDay(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

export interface Budget {
  limit: number;
  /** Spent today, plus what calls under way have reserved. */
  used: number;
  exhausted: boolean;
}

/** The daily token budget: the `ai_daily_token_budget` setting when set, else AI_DAILY_TOKEN_BUDGET. */
export async function readBudget(now = new Date()): Promise<Budget> {
  const setting = (await getSettings()).ai_daily_token_budget.trim();
  const limit = /^\d+$/.test(setting) ? Number(setting) : getEnv().AI_DAILY_TOKEN_BUDGET;
  const used = await tokensCountedOn(utcDay(now));
  return { limit, used, exhausted: used >= limit };
}
