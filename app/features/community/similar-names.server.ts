import { listNameCandidates } from "~db/repositories/suggestions.server";
import { checkSimilarNames, PAIRS_LOST_PER_CHAR, similarityFilters, type SimilarityVerdict } from "./similarity";

/**
 * The similar-name check against the stored names: only the suggestions that could score above the
 * threshold are read (length range and shared letter pairs; see `similarityFilters`), then scored
 * exactly. `exceptSuggestionId`: a suggestion is not compared with itself.
 */
export async function checkStoredSimilarNames(name: string, exceptSuggestionId?: number): Promise<SimilarityVerdict> {
  const filters = similarityFilters(name);
  if (filters.name.length === 0) return { blocked: false, similar: [] };
  const candidates = await listNameCandidates(filters, PAIRS_LOST_PER_CHAR);
  return checkSimilarNames(
    name,
    candidates.filter((c) => !(c.kind === "suggestion" && c.id === exceptSuggestionId)),
  );
}
