import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { streamAssistantAnswer } from "~/features/assistant/route.server";
import { requireAdmin } from "~/utils/auth.server";
import { badRequest } from "~/utils/responses.server";
import { withDatabaseNet } from "~/utils/failures.server";

/** The composer's POST with JavaScript: the answer streams back as JSON lines. */
export const action = withDatabaseNet(async function action({ request }: ActionFunctionArgs) {
  return streamAssistantAnswer(request);
});

export const loader = withDatabaseNet(async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  // Only the composer's POST streams; nothing links here.
  throw await badRequest(request);
});
