import { AnswerFigure } from "./answer-figure";

/** The answers' figure for the server, which renders it directly; empty in the browser build (kept-part.tsx). */
export default { AnswerFigure };
