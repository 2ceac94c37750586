import type * as ResultModule from "./draw-result-section";

/**
 * A draw's result half (decision 263), once its chunk has loaded in the browser: the draw form loads
 * it while the visitor draws, draw-parts.tsx before hydrating a result page, and renders it directly
 * once it is here.
 */
export const resultHalf: { module?: typeof ResultModule } = {};

export const loadResult = () => import("./draw-result-section").then((m) => (resultHalf.module = m));
