import { keptPart } from "~/components/kept-part";
import serverParts from "./answer-figure.ssr";

/**
 * "92 % of 140 answers worked" (AnswerFigure) as the pages show it: the server's text, kept at
 * hydration, so a page loads none of its code (kept-part.tsx, decision 265). One per page.
 */
export const KeptAnswerFigure = keptPart(
  () => serverParts.AnswerFigure,
  () => import("./answer-figure").then((m) => m.AnswerFigure),
  () => "answer-figure-part",
);
