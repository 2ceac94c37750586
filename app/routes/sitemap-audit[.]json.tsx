import type { LoaderFunctionArgs } from "@remix-run/node";
import { auditJsonResponse } from "~/features/sitemap-audit/request.server";
import { withDatabaseNet } from "~/utils/failures.server";

/** `/sitemap-audit.json?url=…&www=on`: the audit report as JSON, for CI. */
export const loader = withDatabaseNet(function loader({ request, context }: LoaderFunctionArgs) {
  return auditJsonResponse(request, context);
});
