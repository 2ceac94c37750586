import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { gameT, jsonResponse, methodNotAllowed, refusal } from "~/features/game/http.server";
import { cachedLeaderboard } from "~/features/game/leaderboard.server";
import { deviceSchema } from "~/features/game/schemas";
import { withDatabaseNet } from "~/utils/failures.server";

/** GET `?device=mobile|desktop` → the top 10 of the last 30 days for that device, best first. */
export const loader = withDatabaseNet(async function loader({ request }: LoaderFunctionArgs) {
  const parsed = deviceSchema.safeParse(new URL(request.url).searchParams.get("device"));
  if (!parsed.success) return refusal(await gameT(request), 400, "device");
  const rows = await cachedLeaderboard(parsed.data);
  return jsonResponse(rows, 200, { "Cache-Control": "public, max-age=10" });
});

export const action = withDatabaseNet(async function action({ request }: ActionFunctionArgs) {
  return methodNotAllowed(await gameT(request), "GET");
});
