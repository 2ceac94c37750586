import { keptPart } from "~/components/kept-part";
import { serverOnly$ } from "vite-env-only/macros";
import { AnswerFigure } from "./answer-figure";

/**
 * "92 % of 140 answers worked" (AnswerFigure) as the pages show it: the server's text, kept at
 * hydration, so a page loads none of its code (kept-part.tsx, decision 265). One per page.
 */
export const KeptAnswerFigure = keptPart(
  serverOnly$(() => AnswerFigure),
  () => import("./answer-figure").then((m) => m.AnswerFigure),
  () => "answer-figure-part",
);
