import { RULES, type DeviceType } from "./rules";

/** The browser side of the game's endpoints: form-encoded requests, JSON answers. */
export interface LeaderboardRow {
  player_name: string;
  score: number;
  created_at: string;
}

export interface GameSessionHandle {
  token: string;
  /** Date.now() when the token arrived: the server started its clock a little earlier. */
  receivedAt: number;
}

export type SaveResult = { ok: true; rank: number } | { ok: false; error: string | null };

const form = (fields: Record<string, string>) => new URLSearchParams(fields);

export async function startGameSession(device: DeviceType): Promise<GameSessionHandle | null> {
  try {
    const res = await fetch("/game/start", { method: "POST", body: form({ device_type: device }) });
    if (!res.ok) return null;
    const { token } = (await res.json()) as { token: string };
    return { token, receivedAt: Date.now() };
  } catch {
    return null;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Saves a finished game. A game cannot end sooner than 60 s after its session started, so a fast
 * player waits out the rest before the server is asked. `error` is the server's message (already in
 * the visitor's language), or null when it could not be reached.
 */
export async function saveGameScore(
  session: GameSessionHandle,
  fields: { player_name: string; score: number; device_type: DeviceType; collected_at: readonly number[] },
): Promise<SaveResult> {
  const wait = session.receivedAt + RULES.durationMs + 250 - Date.now();
  if (wait > 0) await sleep(wait);
  try {
    const res = await fetch("/game/scores", {
      method: "POST",
      body: form({
        token: session.token,
        player_name: fields.player_name,
        score: String(fields.score),
        device_type: fields.device_type,
        collected_at: fields.collected_at.join(","),
      }),
    });
    const body = (await res.json().catch(() => null)) as { rank?: number; error?: string } | null;
    if (res.status === 201 && typeof body?.rank === "number") return { ok: true, rank: body.rank };
    return { ok: false, error: typeof body?.error === "string" ? body.error : null };
  } catch {
    return { ok: false, error: null };
  }
}

export async function fetchLeaderboard(device: DeviceType, fresh: boolean): Promise<LeaderboardRow[]> {
  const res = await fetch(`/game/leaderboard?device=${device}`, { cache: fresh ? "no-cache" : "default" });
  if (!res.ok) throw new Error(`leaderboard ${res.status}`);
  return (await res.json()) as LeaderboardRow[];
}
