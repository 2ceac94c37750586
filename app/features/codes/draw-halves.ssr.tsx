import { DrawReadyForm } from "./draw-ready-form";
import { DrawResultSection } from "./draw-result-section";

/**
 * Both halves of a draw page, for the server, which renders them directly. The browser build
 * replaces this module with nothing (`ssrOnlyModules` in vite.config.ts): a static import of the
 * halves there would put their code back in the page's chunks (draw-parts.tsx).
 */
export default { DrawReadyForm, DrawResultSection };
