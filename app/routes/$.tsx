import { NotFound } from "~/components/error-boundary";

/** Any unknown path: status 404 with the not-found page. */
export function loader() {
  throw new Response(null, { status: 404 });
}

export default function UnknownRoute() {
  return <NotFound />;
}

export function ErrorBoundary() {
  return <NotFound />;
}
