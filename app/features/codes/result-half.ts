import { splitPart } from "~/components/split-part";
import { serverOnly$ } from "vite-env-only/macros";
import { DrawResultSection } from "./draw-result-section";

/**
 * A draw's result half (decision 263), a split part (decision 265): the draw form loads its code
 * while the visitor draws, draw-parts.tsx before hydrating a result page, and it renders at once
 * once its code is here.
 */
export const DrawResultPart = splitPart(
  serverOnly$(() => DrawResultSection),
  () => import("./draw-result-section").then((m) => m.DrawResultSection),
);

export const loadResult = DrawResultPart.preload;
