import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { requireAdmin } from "~/utils/auth.server";

/** The dashboard opens on its default tab, the AI assistant (the counters stay above the tabs). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  throw redirect("/admin/assistant", 303);
}
