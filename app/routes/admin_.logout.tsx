import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { endAdminSession } from "~/utils/auth.server";
import { assertSameOrigin } from "~/utils/same-origin.server";
import { redirectWithToast } from "~/utils/toast.server";
import { withDatabaseNet } from "~/utils/failures.server";

export const action = withDatabaseNet(async function action({ request }: ActionFunctionArgs) {
  await assertSameOrigin(request);
  return redirectWithToast(
    "/",
    { type: "success", key: "admin:logout.success" },
    { headers: { "Set-Cookie": await endAdminSession(request) } },
  );
});

export const loader = withDatabaseNet(function loader() {
  return redirect("/admin", 303);
});
