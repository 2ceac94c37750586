import type { ProposalAction, ProviderId } from "./types";

/** What the transcript renders (built on the server, sent to the page as loader data). */
export interface ProposalView {
  action: ProposalAction;
  reason: string;
  /** False once done or no longer possible (the card then shows no form). */
  open: boolean;
  /** Facts about the target, some written by visitors: rendered as text only. */
  target: Record<string, string>;
  formAction: string;
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

export type TranscriptItem = { kind: "user"; text: string } | { kind: "answer"; parts: AnswerPart[] };

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
