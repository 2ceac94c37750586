import { DrawReadyForm } from "./draw-ready-form";

/**
 * A draw page's form half, for the server, which renders it directly. The browser build replaces
 * this module with nothing (`ssrOnlyModules` in vite.config.ts): a static import of the half there
 * would put its code back in the page's chunks (draw-parts.tsx).
 */
export default { DrawReadyForm };
