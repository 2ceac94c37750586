/**
 * Runs `run` once the page has loaded and the browser is idle with nothing else waiting (no timeout
 * forces it in): for what a page can do without during its load (decision 250: the constellation's
 * chunk; decision 280: the live settings stream). Answers the cancel, for an effect's cleanup.
 */
export function afterLoadWhenIdle(run: () => void): () => void {
  let idle = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const whenIdle = () => {
    if ("requestIdleCallback" in window) idle = window.requestIdleCallback(run);
    else timer = setTimeout(run, 1_500);
  };
  if (document.readyState === "complete") whenIdle();
  else window.addEventListener("load", whenIdle, { once: true });
  return () => {
    window.removeEventListener("load", whenIdle);
    if (idle) window.cancelIdleCallback(idle);
    clearTimeout(timer);
  };
}
