import type { ComponentProps } from "react";
import { ServerHtml } from "~/components/server-html";
import { contents } from "~/styles/ui.css";
import { OfferDetails } from "./offer-views";

/**
 * What the referral gives and how to claim it (OfferDetails), as the pages show it: text the server
 * rendered, kept as it is at hydration (ServerHtml, decision 250). Its wrapper is `{testId}-part`.
 */
export function ClaimGuide(props: ComponentProps<typeof OfferDetails>) {
  return (
    <ServerHtml id={`${props.testId}-part`} className={contents}>
      <OfferDetails {...props} />
    </ServerHtml>
  );
}
