import type { ColumnType, Generated, Insertable, Selectable, Updateable } from "kysely";

/**
 * Typed schema of the database. Conventions (portable to PostgreSQL):
 * - timestamps are ISO 8601 UTC strings (`new Date().toISOString()`), which sort as text;
 * - booleans are integers 0/1 guarded by CHECK constraints;
 * - list-like platform data (hosts, URL rules) is text/JSON, read through db/platform-links.ts.
 */
type Flag = ColumnType<number, number | undefined, number>;
type Timestamp = string;

export interface PlatformsTable {
  id: Generated<number>;
  name: string;
  slug: string;
  /** French description (the default language). */
  description: ColumnType<string, string | undefined, string>;
  description_en: string | null;
  description_de: string | null;
  description_es: string | null;
  code_pattern: string | null;
  emoji_icon: ColumnType<string, string | undefined, string>;
  gradient_from: string;
  gradient_to: string;
  is_active: Flag;
  show_in_homepage: Flag;
  show_in_partnerships: Flag;
  display_order: ColumnType<number, number | undefined, number>;
  custom_logo_light_url: string | null;
  custom_logo_dark_url: string | null;
  /** Space-separated host names the platform's referral links may live on (e.g. `tesla.com ts.la`). */
  hosts: ColumnType<string, string | undefined, string>;
  /** Link built from a plain code, `{code}` replaced, e.g. `https://ts.la/{code}`. */
  referral_url_template: string | null;
  /** JSON array of extraction rules (see db/platform-links.ts). */
  url_rules: ColumnType<string, string | undefined, string>;
  created_at: Timestamp;
  /** Set when an admin deleted it and its rows are still being removed (decision 292). */
  deleting_since: string | null;
}

export interface ReferralCodesTable {
  id: Generated<number>;
  platform_id: number;
  code: string;
  referral_url: string | null;
  is_active: Flag;
  is_permanent: Flag;
  expires_at: Timestamp | null;
  times_served: ColumnType<number, number | undefined, number>;
  last_served_at: Timestamp | null;
  created_at: Timestamp;
  /** Why an inactive code is paused: by its owner, or automatically after failing answers; null otherwise. */
  paused_reason: ColumnType<PausedReason | null, PausedReason | null | undefined, PausedReason | null>;
  paused_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  /** Answers older than this no longer count towards an automatic pause (an admin restored the code). */
  reports_reset_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  /** SHA-256 of the owner's private link token; the token itself is never stored. */
  owner_token_hash: ColumnType<string | null, string | null | undefined, string | null>;
  /** Out of the draw until this instant after answers said its monthly referral cap was reached (then back by itself). */
  capped_until: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  /** The code's place in the rotation, the draw's sort key (db/repositories/rotation.server.ts): serves plus any level it was raised to on entering. */
  rotation_count: ColumnType<number, number | undefined, number>;
  /** Random, drawn anew at every serve: the tie-break among the least served (rotation.server.ts). */
  draw_key: ColumnType<number, number | undefined, number>;
  /** Keyed hash of platform and code (rotation.server.ts): finds the code's history again after a deletion. */
  code_key: ColumnType<string | null, string | null | undefined, string | null>;
  /** Keyed hash of the network (/48, /24) the code was submitted from: its "worked" answers never count. */
  owner_network_hash: ColumnType<string | null, string | null | undefined, string | null>;
  /** Times its owner put it back after a pause for failing answers (once; then only the admin). */
  owner_restores: ColumnType<number, number | undefined, number>;
}

/** What a deleted code had reached in the rotation, by its keyed hash (never the code in clear). */
export interface CodeHistoryTable {
  code_key: string;
  platform_id: number;
  rotation_count: number;
  times_served: number;
  deleted_at: Timestamp;
}

export type PausedReason = "owner" | "reports";
export type ReportOutcome = "worked" | "failed";
/** Why a failed answer failed (the report form's buttons). */
export type ReportReason = "expired" | "limit-reached" | "wrong-region" | "conditions-not-met" | "other";

/** A visitor's answer to "did this code work?": one per draw. */
export interface CodeReportsTable {
  id: Generated<number>;
  random_request_id: number;
  code_id: number;
  platform_id: number;
  outcome: ReportOutcome;
  /** Pseudonym of the answering address (IPv6 by its /64): keyed by the month's key (pseudonym_keys); emptied after RETENTION.answerAddressDays. */
  ip_hash: string;
  /** Why it failed; null for "worked" and for answers given before reasons existed. */
  reason: ColumnType<ReportReason | null, ReportReason | null | undefined, ReportReason | null>;
  /** Keyed hash of the network (/48, /24) that made the draw answered; null for answers before migration 0016. */
  network_hash: ColumnType<string | null, string | null | undefined, string | null>;
  /** 1 when the draw or the answer came from the code's owner (cookie or network): never counted by the rule. */
  from_owner: Flag;
  created_at: Timestamp;
}

/** What a referral gives and how to claim it: French bare, other languages suffixed (empty: French shown). */
export interface PlatformOffersTable {
  platform_id: number;
  offer_referee: string | null;
  offer_referee_en: string | null;
  offer_referee_de: string | null;
  offer_referee_es: string | null;
  offer_referrer: string | null;
  offer_referrer_en: string | null;
  offer_referrer_de: string | null;
  offer_referrer_es: string | null;
  offer_conditions: string | null;
  offer_conditions_en: string | null;
  offer_conditions_de: string | null;
  offer_conditions_es: string | null;
  /** One step per line. */
  offer_steps: string | null;
  offer_steps_en: string | null;
  offer_steps_de: string | null;
  offer_steps_es: string | null;
  /** YYYY-MM-DD. */
  offer_checked_on: string | null;
  updated_at: Timestamp;
}

export interface RandomRequestsTable {
  id: Generated<number>;
  platform_id: number;
  served_code_id: number | null;
  /** Snapshot of the code as served, kept when the code is later deleted. */
  served_code: string;
  created_at: Timestamp;
}

export const REQUEST_STATUSES = ["pending", "approved", "rejected"] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

export interface DeletionRequestsTable {
  id: Generated<number>;
  code: string;
  platform_id: number;
  reason: string | null;
  status: ColumnType<RequestStatus, RequestStatus | undefined, RequestStatus>;
  created_at: Timestamp;
  resolved_at: Timestamp | null;
}

/** A visitor's request to remove anything about them, no code needed (migration 0017). */
export interface RemovalRequestsTable {
  id: Generated<number>;
  /** What the visitor wants removed, in their words. */
  details: string;
  status: ColumnType<"pending" | "done", "pending" | "done" | undefined, "pending" | "done">;
  created_at: Timestamp;
  resolved_at: Timestamp | null;
}

export interface PlatformSuggestionsTable {
  id: Generated<number>;
  name: string;
  normalized_name: string;
  description: string | null;
  website_url: string | null;
  status: ColumnType<RequestStatus, RequestStatus | undefined, RequestStatus>;
  votes_count: ColumnType<number, number | undefined, number>;
  created_at: Timestamp;
  /** Lengths of the normalized name and of its core (similarity.ts `nameLengths`): the similar-name prefilter. */
  name_length: ColumnType<number | null, number | null | undefined, number | null>;
  core_length: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface PlatformSuggestionVotesTable {
  id: Generated<number>;
  suggestion_id: number;
  /** Pseudonym of the client address, keyed by the month's key (pseudonym_keys); the vote goes after RETENTION.voteDays. */
  ip_hash: string;
  /** Hash of the `client_id` cookie. */
  client_fingerprint: string;
  created_at: Timestamp;
}

export type DisplayMode = "logo" | "name" | "both";

export interface PartnershipsTable {
  id: Generated<number>;
  name: string;
  /** French description (the default language); the others fall back to it when empty. */
  description: string | null;
  description_en: string | null;
  description_de: string | null;
  description_es: string | null;
  url: string;
  logo_url: string | null;
  display_mode: ColumnType<DisplayMode, DisplayMode | undefined, DisplayMode>;
  is_active: Flag;
  display_order: ColumnType<number, number | undefined, number>;
  created_at: Timestamp;
}

export const DEVICE_TYPES = ["mobile", "desktop"] as const;
export type DeviceType = (typeof DEVICE_TYPES)[number];

export interface GameScoresTable {
  id: Generated<number>;
  player_name: string;
  score: number;
  device_type: DeviceType;
  /** Keyed hash of the poster's subscriber (an IPv6 /48, an IPv4 address): one board entry per subscriber and day. */
  network_hash: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
}

/** Game sessions already spent on a saved score (a session is a signed token; see migration 0004). */
export interface GameSessionsUsedTable {
  id: string;
  expires_at: Timestamp;
}

export interface SettingsTable {
  key: string;
  value: string;
  updated_at: Timestamp;
}

export interface UsersTable {
  id: Generated<number>;
  email: string;
  password_hash: string;
  created_at: Timestamp;
  password_changed_at: Timestamp;
}

export interface UserRolesTable {
  user_id: number;
  role: "admin";
}

export interface SessionsTable {
  id: string;
  user_id: number;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export type AssistantProviderId = "anthropic" | "openai";

export interface AssistantConversationsTable {
  id: Generated<number>;
  user_id: number;
  /** The admin's first message, shortened. */
  title: string;
  /** The provider and model of the last exchange. */
  provider: AssistantProviderId;
  model: string;
  input_tokens: ColumnType<number, number | undefined, number>;
  output_tokens: ColumnType<number, number | undefined, number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AssistantMessagesTable {
  id: Generated<number>;
  conversation_id: number;
  position: number;
  role: "user" | "assistant" | "tool";
  /** JSON of the provider-neutral message (app/features/assistant/types.ts). */
  content: string;
  created_at: Timestamp;
}

export interface AssistantUsageTable {
  id: Generated<number>;
  conversation_id: number | null;
  provider: string;
  model: string;
  input_tokens: number;
  output_tokens: number;
  created_at: Timestamp;
}

/** The assistant's tokens per UTC day, spent and reserved (migration 0018, decision 326). */
export interface AssistantBudgetDaysTable {
  /** YYYY-MM-DD, UTC. */
  day: string;
  tokens: ColumnType<number, number | undefined, number>;
}

/** Rate-limit windows on PostgreSQL (rate-limiter-flexible's layout; unused on SQLite). */
export interface RateLimitsTable {
  key: string;
  points: Generated<number>;
  /** The window's end, epoch ms. */
  expire: number | null;
}

/** An uploaded platform logo, served at `/uploads/<name>` (migration 0009). */
export interface UploadedFilesTable {
  name: string;
  content_type: string;
  bytes: Uint8Array;
  created_at: string;
}

/** Draws and answers of one platform on one Paris day (`YYYY-MM-DD`), rolled up from the raw logs (migration 0011). */
export interface PlatformDailyStatsTable {
  platform_id: number;
  day: string;
  draws: ColumnType<number, number | undefined, number>;
  answers_worked: ColumnType<number, number | undefined, number>;
  answers_failed: ColumnType<number, number | undefined, number>;
}

/** A code's answers whose raw rows the retention job removed (migration 0011). */
export interface CodeAnswerTotalsTable {
  code_id: number;
  worked: ColumnType<number, number | undefined, number>;
  failed: ColumnType<number, number | undefined, number>;
  last_worked_at: string | null;
}

/**
 * Per platform, its codes that are active and not capped, kept by triggers on referral_codes
 * (migration 0013): with the expired and cap-ended ones, the "in the draw" figure without a scan.
 */
export interface PlatformCodeCountsTable {
  platform_id: number;
  active_uncapped: ColumnType<number, number | undefined, number>;
  codes: ColumnType<number, number | undefined, number>;
}

/** The random key of one month's address pseudonyms (`YYYY-MM`), removed once the month is over (migration 0017). */
export interface PseudonymKeysTable {
  period: string;
  secret: string;
  created_at: Timestamp;
}

/** How far a raw log is rolled up: every row before `until` is counted in platform_daily_stats. */
export interface HistoryRollupTable {
  name: string;
  until: Timestamp;
}

export interface Database {
  platforms: PlatformsTable;
  referral_codes: ReferralCodesTable;
  random_requests: RandomRequestsTable;
  code_reports: CodeReportsTable;
  platform_offers: PlatformOffersTable;
  deletion_requests: DeletionRequestsTable;
  removal_requests: RemovalRequestsTable;
  platform_suggestions: PlatformSuggestionsTable;
  platform_suggestion_votes: PlatformSuggestionVotesTable;
  partnerships: PartnershipsTable;
  game_scores: GameScoresTable;
  game_sessions_used: GameSessionsUsedTable;
  settings: SettingsTable;
  users: UsersTable;
  user_roles: UserRolesTable;
  sessions: SessionsTable;
  assistant_conversations: AssistantConversationsTable;
  assistant_messages: AssistantMessagesTable;
  assistant_usage: AssistantUsageTable;
  assistant_budget_days: AssistantBudgetDaysTable;
  rate_limits: RateLimitsTable;
  uploaded_files: UploadedFilesTable;
  platform_daily_stats: PlatformDailyStatsTable;
  code_answer_totals: CodeAnswerTotalsTable;
  platform_code_counts: PlatformCodeCountsTable;
  history_rollup: HistoryRollupTable;
  code_history: CodeHistoryTable;
  pseudonym_keys: PseudonymKeysTable;
  ledger_events: LedgerEventsTable;
  ledger_days: LedgerDaysTable;
}

/** The public ledger (migration 0021, docs/ledger.md): a draw or a change of a code's eligibility, written by triggers. */
export interface LedgerEventsTable {
  id: Generated<number>;
  platform_id: number;
  code_id: number;
  type: string;
  at: Timestamp;
  /** `YYYY-MM-DD` (UTC) of `at`: the day's file. */
  day: string;
  /** The code's rotation_count after the change. */
  count: number;
  active: Flag;
  /** Null when the code is permanent or has no expiry. */
  expires: Timestamp | null;
  capped: Timestamp | null;
}

/** A closed day of the ledger as published: its header line and the SHA-256 of its file. */
export interface LedgerDaysTable {
  platform_id: number;
  day: string;
  header: string;
  sha256: string;
}

export type Platform = Selectable<PlatformsTable>;
export type NewPlatform = Insertable<PlatformsTable>;
export type PlatformUpdate = Updateable<PlatformsTable>;
export type ReferralCode = Selectable<ReferralCodesTable>;
export type NewReferralCode = Insertable<ReferralCodesTable>;
export type DeletionRequest = Selectable<DeletionRequestsTable>;
export type PlatformSuggestion = Selectable<PlatformSuggestionsTable>;
export type Partnership = Selectable<PartnershipsTable>;
export type NewPartnership = Insertable<PartnershipsTable>;
export type GameScore = Selectable<GameScoresTable>;
export type User = Selectable<UsersTable>;
