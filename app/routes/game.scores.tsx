import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { saveScore } from "~db/repositories/game.server";
import { runWrite } from "~db/availability.server";
import { subscriberHash } from "~/features/trust/address.server";
import { gameAction, gameT, jsonResponse, methodNotAllowed, refusal, type GameT } from "~/features/game/http.server";
import { forgetLeaderboard } from "~/features/game/leaderboard.server";
import { checkCollections, isPlausibleScore } from "~/features/game/rules";
import { scoreSchema } from "~/features/game/schemas";
import { readGameSession, SESSION_MAX_AGE_MS, sessionAge } from "~/features/game/session.server";
import { withDatabaseNet } from "~/utils/failures.server";

/**
 * POST a finished game's score. Accepted only with a valid, unspent session of the same device, from
 * 60 s to a few minutes after it started, for a score a 60 s game can reach, with collection times the
 * spawn schedule allows, and one board entry per subscriber (an IPv6 /48, an IPv4 address) and UTC day
 * (decision 316). Every refusal is a 4xx JSON and writes nothing.
 */
const SCORE_LIMIT = { name: "game-score", max: 10, windowMs: 10 * 60_000 };

export const loader = withDatabaseNet(async function loader({ request }: LoaderFunctionArgs) {
  return methodNotAllowed(await gameT(request), "POST");
});

export const action = withDatabaseNet(async function action({ request, context }: ActionFunctionArgs) {
  return gameAction(request, context, SCORE_LIMIT, async (fields, t) => saveFromForm(fields, t, await subscriberHash(context)));
});

async function saveFromForm(fields: Record<string, string>, t: GameT, network: string): Promise<Response> {
  const parsed = scoreSchema.safeParse(fields);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const code = String(issue.message).replace(/^errors\./, "");
    return jsonResponse({ error: t(issue.message), code, field: issue.path[0] }, 400);
  }
  const { token, player_name, score, device_type, collected_at } = parsed.data;
  const session = readGameSession(token);
  if (!session) return refusal(t, 400, "session");
  if (session.device !== device_type) return refusal(t, 400, "deviceMismatch");
  const now = Date.now();
  const age = sessionAge(session, now);
  if (age !== "ok") return refusal(t, 400, age === "too-early" ? "tooEarly" : "expired");
  if (!isPlausibleScore(score)) return refusal(t, 400, "score");
  if (!checkCollections(collected_at, score).ok) return refusal(t, 400, "collectedAt");

  const write = await runWrite(
    "game-score",
    () =>
      saveScore(
        {
          sessionId: session.id,
          sessionExpiresAt: new Date(session.startedAt + SESSION_MAX_AGE_MS).toISOString(),
          player_name,
          score,
          device_type,
          network_hash: network,
        },
        new Date(now),
      ),
    "result",
  );
  // The database refuses writes for now: the game keeps its score and the player may send it again.
  if (!write.ok) return refusal(t, 503, "unavailable", write.headers);
  const saved = write.value;
  if (!saved.saved) return refusal(t, saved.reason === "daily" ? 429 : 409, saved.reason);
  forgetLeaderboard(device_type);
  return jsonResponse({ ok: true, rank: saved.rank }, 201);
}
