import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { gameT, jsonResponse, limitByAddress, methodNotAllowed, readFormFields, refusal } from "~/features/game/http.server";
import { startSchema } from "~/features/game/schemas";
import { createGameSession } from "~/features/game/session.server";

/** POST `device_type` → `{ "token" }`: a signed, single-use game session that starts now. */
const START_LIMIT = { name: "game-start", max: 30, windowMs: 10 * 60_000 };

export async function loader({ request }: LoaderFunctionArgs) {
  return methodNotAllowed(await gameT(request), "POST");
}

export async function action({ request, context }: ActionFunctionArgs) {
  const t = await gameT(request);
  if (request.method !== "POST") return methodNotAllowed(t, "POST");
  const fields = await readFormFields(request, t);
  if (fields instanceof Response) return fields;
  const limited = await limitByAddress(START_LIMIT, context, t);
  if (limited) return limited;
  const parsed = startSchema.safeParse(fields);
  if (!parsed.success) return refusal(t, 400, "device");
  return jsonResponse({ token: createGameSession(parsed.data.device_type) });
}
