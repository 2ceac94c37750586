import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData, useOutlet } from "@remix-run/react";
import { AssistantPage } from "~/features/assistant/assistant-page";
import type { PageActionData } from "~/features/assistant/view";
import { handleAssistantPost, loadAssistantShell } from "~/features/assistant/route.server";
import { routeMeta } from "~/utils/meta";
import { keepRetryAfter } from "~/utils/responses.server";
import { withDatabaseNet } from "~/utils/failures.server";

export const handle = { i18n: ["admin", "assistant", "lists"] };

/** The default admin tab: past conversations, the budget and the providers; a new conversation. */
export const loader = withDatabaseNet(async function loader({ request }: LoaderFunctionArgs) {
  return loadAssistantShell(request);
});

/** intent=send (the whole exchange, then 303 to the conversation) or intent=delete-conversation. */
export const headers = keepRetryAfter;

export const action = withDatabaseNet(async function action({ request }: ActionFunctionArgs) {
  return handleAssistantPost(request);
});

export const meta = routeMeta;

export default function AdminAssistant() {
  const shell = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as PageActionData | undefined;
  const outlet = useOutlet();
  // A stored conversation renders the page itself (/admin/assistant/{id}); here, a new one.
  return outlet ?? <AssistantPage shell={shell} conversation={null} transcript={[]} actionData={actionData} />;
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-pages";
