import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { AssistantPage } from "~/features/assistant/assistant-page";
import type { PageActionData } from "~/features/assistant/view";
import { handleAssistantPost, loadConversationPage } from "~/features/assistant/route.server";
import { routeMeta } from "~/utils/meta";
import type { loader as shellLoader } from "./admin.assistant";
import { keepRetryAfter } from "~/utils/responses.server";
import { withDatabaseNet } from "~/utils/failures.server";

export const handle = { i18n: ["admin", "assistant", "lists"] };

/** One stored conversation, with its tool calls and proposals. */
export const loader = withDatabaseNet(async function loader({ request, params }: LoaderFunctionArgs) {
  return loadConversationPage(request, params.id);
});

/** The same post as /admin/assistant, so a failed send re-renders this conversation. */
export const headers = keepRetryAfter;

export const action = withDatabaseNet(async function action({ request }: ActionFunctionArgs) {
  return handleAssistantPost(request);
});

export const meta = routeMeta;

export default function AdminAssistantConversation() {
  const shell = useRouteLoaderData<typeof shellLoader>("routes/admin.assistant");
  const { conversation, transcript, confirmingProposal } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as PageActionData | undefined;
  if (!shell) return null;
  return (
    <AssistantPage
      shell={shell}
      conversation={conversation}
      transcript={transcript}
      actionData={actionData}
      confirmingProposal={confirmingProposal}
    />
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-pages";
