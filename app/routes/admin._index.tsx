import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { requireAdmin } from "~/utils/auth.server";
import { withDatabaseNet } from "~/utils/failures.server";

/** The dashboard opens on its default tab, the AI assistant (the counters stay above the tabs). */
export const loader = withDatabaseNet(async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  throw redirect("/admin/assistant", 303);
});
