import { useFetcher } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { safeHref } from "~db/platform-links";
import { badge, card, fieldError, flush, muted, visuallyHidden } from "~/styles/ui.css";
import * as styles from "./suggestions.css";
import { badgeClass, buttonClass } from "~/styles/recipes";

export interface SuggestionView {
  id: number;
  name: string;
  description: string | null;
  websiteUrl: string | null;
  approved: boolean;
  votes: number;
  voted: boolean;
  popular: boolean;
  isNew: boolean;
}

type Refusal = { suggestionId: number | null; key: string } | null;

export function SuggestionList({ suggestions, refusal }: { suggestions: SuggestionView[]; refusal: Refusal }) {
  const { t } = useTranslation("suggest");
  if (suggestions.length === 0) return <p className={muted}>{t("list.empty")}</p>;
  return (
    <>
      {refusal && refusal.suggestionId === null ? (
        <p className={fieldError} role="alert">
          {t(refusal.key)}
        </p>
      ) : null}
      <ol className={styles.suggestionList} data-testid="suggestion-list">
        {suggestions.map((s) => (
          <SuggestionItem key={s.id} suggestion={s} refusal={refusal?.suggestionId === s.id ? refusal.key : null} />
        ))}
      </ol>
    </>
  );
}

function SuggestionItem({ suggestion: s, refusal }: { suggestion: SuggestionView; refusal: string | null }) {
  const { t } = useTranslation("suggest");
  const fetcher = useFetcher<{ vote?: { suggestionId: number | null; key: string } }>();
  // Optimistic: counted and marked as voted while the vote is on its way.
  const pending = fetcher.state !== "idle" && fetcher.formData?.get("intent") === "vote";
  const fetcherRefusal = fetcher.state === "idle" ? fetcher.data?.vote?.key : undefined;
  const message = fetcherRefusal ?? refusal;
  const voted = s.voted || pending;
  const votes = s.votes + (pending && !s.voted ? 1 : 0);
  const website = safeHref(s.websiteUrl);
  const messageId = `vote-message-${s.id}`;
  const count = useRef<HTMLParagraphElement>(null);
  const refusalMessage = useRef<HTMLParagraphElement>(null);
  const sent = useRef(false);
  // The vote button is disabled once pressed, which drops the focus to <body>: it goes to the count
  // (a live region, so the new count is read out), or to the refusal once the server answers one.
  useEffect(() => {
    if (pending) {
      sent.current = true;
      count.current?.focus();
    } else if (sent.current && fetcher.state === "idle") {
      sent.current = false;
      if (fetcherRefusal) refusalMessage.current?.focus();
    }
  }, [pending, fetcher.state, fetcherRefusal]);

  return (
    <li
      className={`${card} ${styles.suggestionItem}`}
      id={`suggestion-${s.id}`}
      data-testid="suggestion"
      data-suggestion-id={s.id}
    >
      <div className={styles.suggestionBody}>
        <h3 className={styles.suggestionName}>
          {s.name} {s.popular ? <span className={`${badge} ${styles.popularBadge}`}>{t("list.popular")}</span> : null}{" "}
          {s.isNew ? <span className={`${badge} ${styles.newBadge}`}>{t("list.new")}</span> : null}{" "}
          {s.approved ? <span className={badgeClass()}>{t("list.approved")}</span> : null}
        </h3>
        {s.description ? <p className={`${muted} ${flush}`}>{s.description}</p> : null}
        {website ? (
          <a href={website} target="_blank" rel="nofollow ugc noopener noreferrer">
            {new URL(website).hostname}
            <span className={visuallyHidden}> ({t("list.websiteOf", { name: s.name })})</span>
          </a>
        ) : null}
        {message ? (
          <p className={fieldError} id={messageId} role="alert" data-testid="vote-message" tabIndex={-1} ref={refusalMessage}>
            {t(message)}
          </p>
        ) : null}
      </div>
      <div className={styles.voteBox}>
        <p className={styles.voteCount} ref={count} tabIndex={-1} aria-live="polite" aria-atomic="true" data-testid="votes">
          <span data-testid="votes-count">{votes}</span>
          <span className={muted}> {t("list.votes", { count: votes })}</span>
          <span className={visuallyHidden}> ({s.name})</span>
        </p>
        <fetcher.Form method="post" action="/suggest-platform" preventScrollReset>
          <input type="hidden" name="intent" value="vote" />
          <input type="hidden" name="suggestion_id" value={s.id} />
          <button
            type="submit"
            className={buttonClass({ tone: voted ? "secondary" : "primary", size: "small" })}
            disabled={voted}
            aria-describedby={message ? messageId : undefined}
            aria-label={voted ? t("vote.votedFor", { name: s.name }) : t("vote.voteFor", { name: s.name })}
          >
            {voted ? t("vote.voted") : t("vote.button")}
          </button>
        </fetcher.Form>
      </div>
    </li>
  );
}
