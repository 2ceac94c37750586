import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { gameAction, gameT, jsonResponse, methodNotAllowed, refusal } from "~/features/game/http.server";
import { startSchema } from "~/features/game/schemas";
import { createGameSession } from "~/features/game/session.server";
import { withDatabaseNet } from "~/utils/failures.server";

/** POST `device_type` → `{ "token" }`: a signed, single-use game session that starts now. */
const START_LIMIT = { name: "game-start", max: 30, windowMs: 10 * 60_000 };

export const loader = withDatabaseNet(async function loader({ request }: LoaderFunctionArgs) {
  return methodNotAllowed(await gameT(request), "POST");
});

export const action = withDatabaseNet(async function action({ request, context }: ActionFunctionArgs) {
  return gameAction(request, context, START_LIMIT, (fields, t) => {
    const parsed = startSchema.safeParse(fields);
    if (!parsed.success) return refusal(t, 400, "device");
    return jsonResponse({ token: createGameSession(parsed.data.device_type) });
  });
});
