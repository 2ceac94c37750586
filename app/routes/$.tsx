import { NotFound } from "~/components/error-boundary";
import { failure } from "~/utils/responses.server";

/** Any unknown path: status 404 with the not-found page. */
export function loader() {
  throw failure(404, "");
}

export default function UnknownRoute() {
  return <NotFound />;
}

export function ErrorBoundary() {
  return <NotFound />;
}
