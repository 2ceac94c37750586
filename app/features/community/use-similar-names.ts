import { useCallback, useEffect, useRef, useState } from "react";
import { normalizeName, type SimilarName } from "./similarity";

const DEBOUNCE_MS = 300;

type Answer = { typed: string; similar: SimilarName[] };

/**
 * While the visitor types (JS only): asks the resource route /resources/similar-names (plain JSON,
 * no page loader) which known names are close. `similar` stays null until the visitor types, so
 * server-rendered results show until then; the previous answer stays on screen while the next one
 * is on its way, and an answer to an older keystroke is dropped.
 */
export function useSimilarNames() {
  const [typed, setTyped] = useState<string | null>(null);
  const [answer, setAnswer] = useState<Answer | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const inFlight = useRef<AbortController>();

  useEffect(
    () => () => {
      clearTimeout(timer.current);
      inFlight.current?.abort();
    },
    [],
  );

  const check = useCallback((value: string) => {
    clearTimeout(timer.current);
    setTyped(value);
    if (normalizeName(value).length < 2) return;
    timer.current = setTimeout(() => {
      inFlight.current?.abort();
      const controller = new AbortController();
      inFlight.current = controller;
      fetch(`/resources/similar-names?name=${encodeURIComponent(value)}`, { signal: controller.signal })
        .then((res) => (res.ok ? (res.json() as Promise<Answer>) : null))
        .then((next) => {
          if (next) setAnswer(next);
        })
        // A failed check only means no hint: the server checks again on submit.
        .catch(() => {});
    }, DEBOUNCE_MS);
  }, []);

  /** After a suggestion is saved: the emptied form shows nothing until the visitor types again. */
  const reset = useCallback(() => {
    clearTimeout(timer.current);
    inFlight.current?.abort();
    setTyped(null);
    setAnswer(null);
  }, []);

  let similar: SimilarName[] | null = null;
  if (typed !== null) {
    if (normalizeName(typed).length < 2) similar = [];
    else similar = answer?.similar ?? [];
  }
  return { similar, check, reset };
}
