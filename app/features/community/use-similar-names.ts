import { useFetcher } from "@remix-run/react";
import type { loader } from "~/routes/resources.similar-names";
import { useCallback, useEffect, useRef, useState } from "react";
import { normalizeName, type SimilarName } from "./similarity";

const DEBOUNCE_MS = 300;

/**
 * While the visitor types (JS only): asks the resource route /resources/similar-names which known
 * names are close.
 * `similar` stays null until the visitor types, so server-rendered results show until then.
 */
export function useSimilarNames() {
  const fetcher = useFetcher<typeof loader>();
  const [typed, setTyped] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const { load } = fetcher;

  useEffect(() => () => clearTimeout(timer.current), []);

  const check = useCallback(
    (value: string) => {
      clearTimeout(timer.current);
      setTyped(value);
      if (normalizeName(value).length < 2) return;
      timer.current = setTimeout(() => load(`/resources/similar-names?name=${encodeURIComponent(value)}`), DEBOUNCE_MS);
    },
    [load],
  );

  let similar: SimilarName[] | null = null;
  if (typed !== null) {
    similar = normalizeName(typed).length < 2 || fetcher.data?.typed !== typed ? [] : fetcher.data.similar;
    // Keep the previous answer on screen while the next one is on its way.
    if (fetcher.state !== "idle" && fetcher.data && normalizeName(typed).length >= 2) similar = fetcher.data.similar;
  }
  return { similar, check };
}
