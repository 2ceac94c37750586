import { GeneralErrorBoundary } from "./error-pages";

/** The error pages for the server, which renders them directly; empty in the browser build (error-boundary.tsx). */
export default { GeneralErrorBoundary };
