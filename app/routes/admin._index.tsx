import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { requireAdmin } from "~/utils/auth.server";

/** Until the AI assistant tab exists, the dashboard opens on the codes tab. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  throw redirect("/admin/codes", 303);
}
