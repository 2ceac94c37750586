import type { ProposalAction } from "./types";

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
