import type { LoaderFunctionArgs } from "@remix-run/node";
import { checkStoredSimilarNames } from "~/features/community/similar-names.server";
import { withDatabaseNet } from "~/utils/failures.server";

/**
 * The similar-names check while a visitor types a suggestion (JS only, debounced): the names close
 * to `?name=` and nothing else, so a keystroke costs one small query, not the whole page's loader.
 */
export const loader = withDatabaseNet(async function loader({ request }: LoaderFunctionArgs) {
  const typed = new URL(request.url).searchParams.get("name")?.slice(0, 100) ?? "";
  const similar = typed ? (await checkStoredSimilarNames(typed)).similar : [];
  return Response.json({ typed, similar }, { headers: { "Cache-Control": "no-store" } });
});
