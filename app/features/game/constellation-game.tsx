import { lazy, Suspense, useEffect, useRef, useState, type ComponentProps, type ComponentType } from "react";
import { useTranslation } from "react-i18next";
import { buttonClass } from "~/styles/recipes";
import { startGameSession, type GameSessionHandle } from "./api";
import type { default as EndDialogPart, FinishedGame } from "./game-end-dialog";
import * as styles from "./game.css";
import { GameLoop, type GameView } from "./game-loop";

// The end dialog (react-aria's modal, zod, the leaderboard) is a chunk of its own, asked for when
// play begins: a visitor who never plays never loads it. Where it cannot load (the network is gone, a
// deploy replaced it), the finished game closes instead: a lazy part that fails would throw to the
// page's error boundary and replace the home page (decision 277).
const loadEndDialog = (): Promise<{ default: ComponentType<ComponentProps<typeof EndDialogPart>> }> =>
  import("./game-end-dialog").then(
    (module) => module,
    () => ({ default: NoEndDialog }),
  );
const EndDialog = lazy(loadEndDialog);

function NoEndDialog({ onClose }: { onClose: () => void }) {
  const close = useRef(onClose);
  useEffect(() => close.current(), []);
  return null;
}

/**
 * The constellation game island (its own chunk, loaded by GameMount once the page is idle): the canvas
 * and its loop, the HUD, the hints, and the end dialog that saves the score and shows the top 10.
 */
export default function ConstellationGame() {
  // The default namespace's hook, not "game"'s: that one would fetch the game's texts at mount, and
  // they wait for someone to be there (below). This part re-renders when they arrive (textsReady).
  const { i18n } = useTranslation();
  const t = (key: string, values?: Record<string, unknown>) => i18n.t(key, { ns: "game", ...values });
  const [textsReady, setTextsReady] = useState(() => i18n.hasLoadedNamespace("game"));
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const loopRef = useRef<GameLoop | null>(null);
  const sessionRef = useRef<Promise<GameSessionHandle | null>>(Promise.resolve(null));
  const quitRef = useRef<HTMLButtonElement>(null);
  const [view, setView] = useState<GameView | null>(null);
  const [finished, setFinished] = useState<FinishedGame | null>(null);

  // The texts (hints, HUD, dialog) are fetched once someone is there: loading a namespace re-renders
  // every translated part of the page, work a visitor who only reads should not pay for.
  useEffect(() => {
    if (textsReady) return;
    let asked = false;
    const load = () => {
      if (asked) return;
      asked = true;
      void i18n.loadNamespaces("game").then(() => setTextsReady(true));
    };
    window.addEventListener("pointermove", load, { passive: true });
    window.addEventListener("pointerdown", load, { passive: true });
    return () => {
      window.removeEventListener("pointermove", load);
      window.removeEventListener("pointerdown", load);
    };
  }, [i18n, textsReady]);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    let loop: GameLoop;
    try {
      loop = new GameLoop(canvas, {
        view: setView,
        playStarted: (device) => {
          sessionRef.current = startGameSession(device);
          void loadEndDialog();
        },
        finished: (result) => setFinished({ ...result, session: sessionRef.current }),
      });
    } catch {
      return; // no 2D canvas: no game, the page is unchanged
    }
    loopRef.current = loop;
    return () => {
      loop.destroy();
      loopRef.current = null;
    };
  }, []);

  const phase = view?.phase ?? "idle";
  const inGame = phase === "countdown" || phase === "playing";

  useEffect(() => {
    if (!inGame) return;
    quitRef.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") loopRef.current?.close();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [inGame]);

  return (
    <>
      <div className={phase === "idle" ? styles.background : styles.overlay} data-testid="game" data-phase={phase}>
        <canvas ref={canvasRef} className={styles.canvas} aria-hidden="true" data-testid="game-canvas" />
        {inGame && view && textsReady ? (
          <div className={styles.hud} data-testid="game-hud">
            <span data-testid="game-score">{t("hud.score", { score: view.score })}</span>
            <span data-testid="game-time">{t("hud.time", { seconds: view.secondsLeft })}</span>
            <button
              ref={quitRef}
              type="button"
              className={`${buttonClass({ tone: "secondary", size: "small" })} ${styles.hudQuit}`}
              onClick={() => loopRef.current?.close()}
            >
              {t("hud.quit")}
            </button>
          </div>
        ) : null}
        <div className={styles.countdown} aria-live="assertive" data-testid="game-countdown">
          {phase === "countdown" && view && textsReady ? (
            <span aria-label={t("countdown", { n: view.countdown })}>{view.countdown}</span>
          ) : null}
        </div>
      </div>
      <div role="status">
        {view?.hint && textsReady ? (
          <p className={styles.hint} data-testid="game-hint">
            {t(`hint.${view.hint}`)}
          </p>
        ) : null}
      </div>
      {phase === "finished" && finished && textsReady ? (
        <Suspense fallback={null}>
          <EndDialog
            key={finished.collectedAt.length + ":" + finished.score}
            game={finished}
            onRestart={() => {
              setFinished(null);
              loopRef.current?.restart();
            }}
            onClose={() => {
              setFinished(null);
              loopRef.current?.close();
            }}
          />
        </Suspense>
      ) : null}
    </>
  );
}
