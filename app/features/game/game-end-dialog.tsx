import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { Button, Dialog, Heading, Modal, ModalOverlay } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { buttonClass } from "~/styles/recipes";
import { Field } from "~/components/forms";
import { alert, input, muted, row } from "~/styles/ui.css";
import { formatDate } from "~/utils/dates";
import { fetchLeaderboard, saveGameScore, type GameSessionHandle, type LeaderboardRow } from "./api";
import * as styles from "./game.css";
import type { DeviceType } from "./rules";
import { PSEUDO_MAX, pseudoSchema } from "./schemas";

export interface FinishedGame {
  device: DeviceType;
  score: number;
  collectedAt: readonly number[];
  session: Promise<GameSessionHandle | null>;
}

type SaveState =
  { status: "editing" } | { status: "saving" } | { status: "saved"; rank: number } | { status: "failed"; reason: string };

/**
 * The end of a game: save the score under a pseudo, the top 10, restart, close or reload. Its own chunk
 * (react-aria's modal, the pseudo's zod schema, the leaderboard), fetched when play begins, so the idle
 * sky costs none of it (decision 250).
 */
export default function EndDialog({
  game,
  onRestart,
  onClose,
}: {
  game: FinishedGame;
  onRestart: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation("game");
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [pseudo, setPseudo] = useState("");
  const [pseudoError, setPseudoError] = useState<string | null>(null);
  const [save, setSave] = useState<SaveState>({ status: "editing" });
  const [board, setBoard] = useState<LeaderboardRow[] | "loading" | "failed">("loading");

  const loadBoard = (fresh: boolean) => {
    setBoard("loading");
    fetchLeaderboard(game.device, fresh).then(setBoard, () => setBoard("failed"));
  };
  useEffect(() => loadBoard(false), []); // eslint-disable-line react-hooks/exhaustive-deps

  async function submit(event?: FormEvent) {
    event?.preventDefault();
    if (save.status === "saving" || save.status === "saved") return;
    const parsed = pseudoSchema.safeParse(pseudo);
    if (!parsed.success) {
      setPseudoError(t(parsed.error.issues[0]!.message));
      inputRef.current?.focus();
      return;
    }
    setPseudoError(null);
    setSave({ status: "saving" });
    const session = await game.session;
    const result = session
      ? await saveGameScore(session, {
          player_name: parsed.data,
          score: game.score,
          device_type: game.device,
          collected_at: game.collectedAt,
        })
      : ({ ok: false, error: null } as const);
    if (result.ok) {
      setSave({ status: "saved", rank: result.rank });
      loadBoard(true);
    } else {
      setSave({ status: "failed", reason: result.error ?? t("end.network") });
    }
  }

  return (
    <ModalOverlay
      isOpen
      isDismissable={false}
      onOpenChange={(open) => (open ? undefined : onClose())}
      className={styles.dialogOverlay}
    >
      <Modal className={styles.dialogModal}>
        <Dialog className={styles.dialogBody} data-testid="game-dialog">
          <Heading slot="title" className={styles.dialogTitle}>
            {t("end.title")}
          </Heading>
          <p className={styles.finalScore} data-testid="game-final-score">
            {t("end.score", { score: game.score })}
          </p>

          {save.status === "saved" ? (
            <p className={alert.success} role="status" data-testid="game-saved">
              {t("end.saved")} {t("end.rank", { rank: save.rank })}
            </p>
          ) : (
            <form noValidate onSubmit={(e) => void submit(e)} className={`${row} ${styles.pseudoForm}`}>
              <Field
                id={`${id}-pseudo`}
                label={t("end.pseudoLabel")}
                description={t("end.pseudoHint")}
                errors={pseudoError ? [pseudoError] : null}
                errorTestId="game-pseudo-error"
                className={styles.pseudoField}
              >
                {(control) => (
                  <input
                    {...control}
                    ref={inputRef}
                    name="player_name"
                    className={input}
                    value={pseudo}
                    maxLength={PSEUDO_MAX}
                    required
                    autoComplete="nickname"
                    onChange={(e) => setPseudo(e.target.value)}
                  />
                )}
              </Field>
              <button type="submit" className={buttonClass()} disabled={save.status === "saving"}>
                {save.status === "saving" ? t("end.saving") : save.status === "failed" ? t("end.retry") : t("end.save")}
              </button>
            </form>
          )}
          {save.status === "failed" ? (
            <p className={alert.error} role="alert" data-testid="game-save-error">
              {t("end.saveFailed", { reason: save.reason })}
            </p>
          ) : null}

          <Leaderboard device={game.device} board={board} />

          <div className={row}>
            <Button className={buttonClass({ tone: "secondary", size: "small" })} onPress={onRestart}>
              {t("end.restart")}
            </Button>
            <Button className={buttonClass({ tone: "secondary", size: "small" })} onPress={onClose}>
              {t("end.close")}
            </Button>
            <Button className={buttonClass({ tone: "ghost", size: "small" })} onPress={() => window.location.reload()}>
              {t("end.reload")}
            </Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

function Leaderboard({ device, board }: { device: DeviceType; board: LeaderboardRow[] | "loading" | "failed" }) {
  const { t, i18n } = useTranslation("game");
  const title = t("board.title", { device: t(`board.devices.${device}`) });
  return (
    <section aria-label={title} data-testid="game-leaderboard" aria-busy={board === "loading"}>
      <h3 className={styles.boardTitle}>{title}</h3>
      {board === "loading" ? (
        <p className={muted}>{t("board.loading")}</p>
      ) : board === "failed" ? (
        <p className={muted}>{t("board.failed")}</p>
      ) : board.length === 0 ? (
        <p className={muted}>{t("board.empty")}</p>
      ) : (
        <table className={styles.board}>
          <caption className={`${muted} ${styles.boardCaption}`}>{t("board.caption")}</caption>
          <thead>
            <tr>
              <th scope="col" className={styles.boardCell}>
                {t("board.rank")}
              </th>
              <th scope="col" className={styles.boardCell}>
                {t("board.player")}
              </th>
              <th scope="col" className={styles.boardScore}>
                {t("board.score")}
              </th>
              <th scope="col" className={styles.boardCell}>
                {t("board.date")}
              </th>
            </tr>
          </thead>
          <tbody>
            {board.map((entry, i) => (
              <tr key={`${i}:${entry.player_name}:${entry.created_at}`} data-testid="game-leaderboard-row">
                <td className={styles.boardCell}>{i + 1}</td>
                <td className={styles.boardCell}>{entry.player_name}</td>
                <td className={styles.boardScore}>{entry.score}</td>
                <td className={styles.boardCell}>{formatDate(entry.created_at, i18n.language)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
