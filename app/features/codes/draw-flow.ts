import type * as ReadyModule from "./draw-ready-form";
import type * as ResultModule from "./draw-result-section";

/**
 * What the two halves of a draw page share in the browser (draw-parts.tsx): whether the next result
 * plays the slot machine (set by the draw form, read once by the result), and each half's code once
 * it has loaded.
 */
export const drawFlow: { animateNext: boolean; ready?: typeof ReadyModule; result?: typeof ResultModule } = {
  animateNext: false,
};

export const loadReady = () => import("./draw-ready-form").then((m) => (drawFlow.ready = m));
export const loadResult = () => import("./draw-result-section").then((m) => (drawFlow.result = m));
