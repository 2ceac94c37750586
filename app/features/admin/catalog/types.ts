import type { SubmissionResult } from "@conform-to/react";

/**
 * What a rejected admin form answers: the intent and row it was about, and Conform's reply whose
 * messages are admin-catalog keys (`""` holds the form-level one).
 */
export type RowActionData = { intent: string; id: number | null; result: SubmissionResult<string[]> };
