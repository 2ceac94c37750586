import { OfferDetails } from "./offer-views";

/** The claim guide for the server, which renders it directly; empty in the browser build (kept-part.tsx). */
export default { OfferDetails };
