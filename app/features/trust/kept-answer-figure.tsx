import type { ComponentProps } from "react";
import { ServerHtml } from "~/components/server-html";
import { contents } from "~/styles/ui.css";
import { AnswerFigure } from "./answer-figure";

/**
 * "92 % of 140 answers worked" (AnswerFigure) as the pages show it: the server's text, kept at
 * hydration (ServerHtml, decision 250). One per page.
 */
export function KeptAnswerFigure(props: ComponentProps<typeof AnswerFigure>) {
  return (
    <ServerHtml id="answer-figure-part" className={contents}>
      <AnswerFigure {...props} />
    </ServerHtml>
  );
}
