import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { NotFound } from "~/components/error-pages";
import { requireAdmin } from "~/utils/auth.server";
import { failure, keepRetryAfter } from "~/utils/responses.server";
import { withDatabaseNet } from "~/utils/failures.server";

/**
 * Any other path under /admin: strangers meet the same guard as on real tabs (so nothing about
 * the admin's layout leaks), the admin a 404.
 */
export const loader = withDatabaseNet(async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  throw failure(404, "");
});

export const headers = keepRetryAfter;

export const action = withDatabaseNet(async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  throw failure(404, "");
});

export default function AdminNotFound() {
  return <NotFound />;
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-pages";
