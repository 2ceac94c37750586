import type { ProposalAction, ProviderId, StopReason } from "./types";

/** One field of a row a proposal comes from; `visitor`: a stranger wrote it (shown as quoted text). */
export interface SourceField {
  /** A key of the assistant namespace's `proposal.fields`. */
  name: string;
  value: string;
  visitor?: boolean;
}

/** A database row a proposal acts on, read when the card is shown. */
export interface SourceRow {
  table: string;
  id: string;
  fields: SourceField[];
}

/** What the transcript renders (built on the server, sent to the page as loader data). */
export interface ProposalView {
  /** The tool call's id: `?proposal=` names the card to confirm without JavaScript. */
  id: string;
  action: ProposalAction;
  reason: string;
  /**
   * open: the form is shown. done: carried out, or no longer possible. expired: older than its
   * lifetime, or a newer answer came (the admin asks again).
   */
  state: "open" | "done" | "expired";
  /** Removes, pauses or refuses something: the form is posted only after a second confirmation. */
  destructive: boolean;
  /** The answer read text written by visitors: the card says so. */
  visitorText: boolean;
  /** When an open card stops being usable (ISO). */
  expiresAt: string | null;
  /** Facts about the target, some written by visitors: rendered as text only. */
  target: Record<string, string>;
  rows: SourceRow[];
  formAction: string;
  /** The form's fields: never `confirm` (the second step adds it). */
  fields: Record<string, string>;
  editable?: { name: string; value: string };
}

export type AnswerPart =
  | { kind: "text"; text: string }
  | {
      kind: "tool";
      id: string;
      name: string;
      input: string;
      rows: number | null;
      isError: boolean;
      /** Set while the tool runs (streaming only). */
      pending?: boolean;
      proposal: ProposalView | null;
    };

export type TranscriptItem =
  | { kind: "user"; text: string }
  | {
      kind: "answer";
      parts: AnswerPart[];
      /** A cap of the exchange ended this answer (a translated notice under it). */
      stop: StopReason | null;
    };

/** What the assistant tab's loader hands the page (the sidebar, the budget, the providers). */
export interface ShellData {
  conversations: Array<{
    id: number;
    title: string;
    provider: string;
    input_tokens: number;
    output_tokens: number;
    updated_at: string;
  }>;
  /** The deletion asked without JavaScript (`?delete-conversation=ID`), to confirm. */
  confirming: { id: number; title: string; back: string } | null;
  budget: { limit: number; used: number; exhausted: boolean };
  defaultProvider: ProviderId;
  providers: Array<{ id: ProviderId; configured: boolean; model: string; keyVariable: string }>;
}

export interface PageActionData {
  message: string;
  provider: string;
  conversationId: number | null;
  error: { key: string; values?: Record<string, string | number> } | null;
  failed: boolean;
}
