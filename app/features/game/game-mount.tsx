import { lazy, Suspense, useEffect, useState } from "react";

// The game is a separate chunk, fetched only when the page has loaded and the browser is idle with
// nothing else waiting: no timeout forces it in (decision 250). Its end dialog is a further chunk.
const ConstellationGame = lazy(() => import("./constellation-game"));

/** No animation for those who asked for less motion or less data: nothing is even loaded. */
function wantsAnimation(): boolean {
  if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return false;
  return !(navigator as Navigator & { connection?: { saveData?: boolean } }).connection?.saveData;
}

/** The home page's mount point for the constellation game: renders nothing on the server or without JS. */
export function GameMount() {
  const [load, setLoad] = useState(false);
  useEffect(() => {
    if (!wantsAnimation()) return;
    let idle = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const whenIdle = () => {
      if ("requestIdleCallback" in window) idle = window.requestIdleCallback(() => setLoad(true));
      else timer = setTimeout(() => setLoad(true), 1_500);
    };
    if (document.readyState === "complete") whenIdle();
    else window.addEventListener("load", whenIdle, { once: true });
    return () => {
      window.removeEventListener("load", whenIdle);
      if (idle) window.cancelIdleCallback(idle);
      clearTimeout(timer);
    };
  }, []);
  return load ? (
    <Suspense fallback={null}>
      <ConstellationGame />
    </Suspense>
  ) : null;
}
