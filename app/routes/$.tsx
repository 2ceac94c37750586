import { NotFound } from "~/components/error-pages";
import { failure } from "~/utils/responses.server";

/** Any unknown path: status 404 with the not-found page. */
export function loader() {
  throw failure(404, "");
}

/** A form posted to an unknown path: the same 404 (without an action, Remix answers 405 and logs a stack). */
export function action() {
  throw new Response(null, { status: 404 });
}

export default function UnknownRoute() {
  return <NotFound />;
}

export function ErrorBoundary() {
  return <NotFound />;
}
