import { NotFound } from "~/components/error-pages";
import { failure } from "~/utils/responses.server";
import { withDatabaseNet } from "~/utils/failures.server";

/** Any unknown path: status 404 with the not-found page. */
export const loader = withDatabaseNet(function loader() {
  throw failure(404, "");
});

/** A form posted to an unknown path: the same 404 (without an action, Remix answers 405 and logs a stack). */
export const action = withDatabaseNet(function action() {
  throw new Response(null, { status: 404 });
});

export default function UnknownRoute() {
  return <NotFound />;
}

export function ErrorBoundary() {
  return <NotFound />;
}
