import { keptPart } from "~/components/kept-part";
import { serverOnly$ } from "vite-env-only/macros";
import { OfferDetails } from "./offer-views";

/**
 * What the referral gives and how to claim it (OfferDetails), as the pages show it: text the server
 * rendered, kept as it is at hydration, so a page loads none of its code (kept-part.tsx, decision
 * 265). Its wrapper is `{testId}-part`.
 */
export const ClaimGuide = keptPart(
  serverOnly$(() => OfferDetails),
  () => import("./offer-views").then((m) => m.OfferDetails),
  (props) => `${props.testId}-part`,
);
