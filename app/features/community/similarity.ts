/**
 * Near-duplicate detection for platform suggestions (above 70 % shown, above 85 % blocked). Pure: shared by the action,
 * the live check while typing, and the unit tests.
 */

const SIMILAR_SHOW_THRESHOLD = 0.7;
const SIMILAR_BLOCK_THRESHOLD = 0.85;

/** 'Boursorama Banque' → 'boursoramabanque': lower-case, accents and non-alphanumerics removed. */
export function normalizeName(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");
}

export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  if (!a.length) return b.length;
  if (!b.length) return a.length;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * Words that brands add to their name without making it another platform ('Boursorama Banque',
 * 'Lydia App', 'igraal.fr'). Only whole trailing words are dropped, and never the last word left.
 */
const COMMON_SUFFIXES = new Set([
  "app",
  "application",
  "bank",
  "banque",
  "bancaire",
  "banca",
  "banco",
  "business",
  "card",
  "carte",
  "com",
  "de",
  "es",
  "eu",
  "fr",
  "france",
  "group",
  "groupe",
  "io",
  "official",
  "officiel",
  "online",
  "pro",
]);

/** The name without its trailing common words, normalized: 'Boursorama Banque' → 'boursorama'. */
function coreName(name: string): string {
  const words = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  while (words.length > 1 && COMMON_SUFFIXES.has(words[words.length - 1]!)) words.pop();
  return words.join("");
}

function ratio(x: string, y: string): number {
  if (!x && !y) return 1;
  return 1 - levenshtein(x, y) / Math.max(x.length, y.length);
}

/**
 * 1 - distance / longer length, on normalized names, and again on the names without their common
 * suffixes; the higher of the two. 1 for identical, 0 when nothing is shared.
 */
export function nameSimilarity(a: string, b: string): number {
  return Math.max(ratio(normalizeName(a), normalizeName(b)), ratio(coreName(a), coreName(b)));
}

/** The lengths a stored suggestion keeps for the prefilter: its normalized name's and its core name's. */
export function nameLengths(name: string): { name: number; core: number } {
  return { name: normalizeName(name).length, core: coreName(name).length };
}

/**
 * What a stored name must have to possibly score above the shown threshold against `name`, on
 * its normalized form and on its core (the similarity is the higher of the two). Both are exact
 * necessary conditions, so reading only the names that meet one of them loses no similar name:
 * - length: a distance is at least the difference of the lengths, so 1 - |n - m| / max(n, m)
 *   must exceed 0.7 (`min`..`max`, widened by one against float rounding);
 * - shared pairs of letters: an edit changes at most two of the pairs a name is made of, so with
 *   a distance d below 0.3 max(n, m), at least (distinct pairs of the name) - 2d of its distinct
 *   pairs appear in the other (the stored normalized name; the core is a part of it).
 */
export interface NameFilter {
  length: number;
  min: number;
  max: number;
  /** Distinct two-character pieces ("bo", "ou", …). */
  pairs: string[];
}

function filterFor(text: string): NameFilter {
  const pairs = new Set<string>();
  for (let i = 0; i + 1 < text.length; i++) pairs.add(text.slice(i, i + 2));
  return {
    length: text.length,
    min: Math.max(0, Math.floor(text.length * SIMILAR_SHOW_THRESHOLD) - 1),
    max: Math.ceil(text.length / SIMILAR_SHOW_THRESHOLD) + 1,
    pairs: [...pairs],
  };
}

/** The prefilter of `name` on its normalized form and on its core. */
export function similarityFilters(name: string): { name: NameFilter; core: NameFilter } {
  return { name: filterFor(normalizeName(name)), core: filterFor(coreName(name)) };
}

/** Share of the distance allowed per character of the longer name, doubled (two pairs per edit). */
export const PAIRS_LOST_PER_CHAR = 2 * (1 - SIMILAR_SHOW_THRESHOLD);

export interface NameCandidate {
  name: string;
  kind: "platform" | "suggestion";
  /** A live platform's slug: its page is where a visitor gets a code (null or absent otherwise). */
  slug?: string | null;
}

export interface SimilarName extends NameCandidate {
  similarity: number;
  /** Rounded percentage for display. */
  percent: number;
}

export type SimilarityVerdict =
  | { blocked: false; similar: SimilarName[] }
  | { blocked: true; reason: "existingPlatform" | "similar"; match: SimilarName; similar: SimilarName[] };

/**
 * Names above 0.7 (best first, at most `limit`); blocks when the best is above 0.85 or when the name
 * is an existing platform's own name (compared normalized, so 'trade-republic' matches 'Trade Republic').
 */
export function checkSimilarNames(name: string, candidates: NameCandidate[], limit = 5): SimilarityVerdict {
  const normalized = normalizeName(name);
  if (!normalized) return { blocked: false, similar: [] };
  const scored: SimilarName[] = [];
  const seen = new Set<string>();
  for (const candidate of candidates) {
    const key = `${candidate.kind}:${normalizeName(candidate.name)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const similarity = nameSimilarity(name, candidate.name);
    if (similarity > SIMILAR_SHOW_THRESHOLD) scored.push({ ...candidate, similarity, percent: Math.round(similarity * 100) });
  }
  scored.sort((a, b) => b.similarity - a.similarity || (a.kind === "platform" ? -1 : 1));
  const similar = scored.slice(0, limit);
  const exactPlatform = scored.find((s) => s.kind === "platform" && s.similarity === 1);
  if (exactPlatform) return { blocked: true, reason: "existingPlatform", match: exactPlatform, similar };
  const best = similar[0];
  if (best && best.similarity > SIMILAR_BLOCK_THRESHOLD) return { blocked: true, reason: "similar", match: best, similar };
  return { blocked: false, similar };
}
