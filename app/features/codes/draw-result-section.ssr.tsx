import { DrawResultSection } from "./draw-result-section";

/**
 * A draw's result half, for the server, which renders it directly. The browser build replaces this
 * module with nothing (`ssrOnlyModules` in vite.config.ts): a static import of the half there would
 * put its code back in the draw form's and the page's chunks (result-half.ts).
 */
export default { DrawResultSection };
