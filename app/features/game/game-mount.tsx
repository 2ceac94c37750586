import { useEffect, useState, type ComponentType } from "react";
import { afterLoadWhenIdle } from "~/utils/after-load";

// The game is a separate chunk, fetched only when the page has loaded and the browser is idle with
// nothing else waiting: no timeout forces it in (decision 250). Its end dialog is a further chunk.
const loadGame = () => import("./constellation-game");

/** No animation for those who asked for less motion or less data: nothing is even loaded. */
function wantsAnimation(): boolean {
  if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return false;
  return !(navigator as Navigator & { connection?: { saveData?: boolean } }).connection?.saveData;
}

/**
 * The home page's mount point for the constellation game: renders nothing on the server or without JS.
 * The chunk is imported first and rendered once it is there: one commit, no suspended render before
 * it (React.lazy's), and a chunk that fails to load leaves the page as it was instead of reaching an
 * error boundary (decision 277).
 */
export function GameMount() {
  const [Game, setGame] = useState<ComponentType | null>(null);
  useEffect(() => {
    if (!wantsAnimation()) return;
    let cancelled = false;
    const cancelLoad = afterLoadWhenIdle(() => {
      loadGame().then(
        (module) => {
          if (!cancelled) setGame(() => module.default);
        },
        () => undefined, // no game: the page is complete without it
      );
    });
    return () => {
      cancelled = true;
      cancelLoad();
    };
  }, []);
  return Game ? <Game /> : null;
}
