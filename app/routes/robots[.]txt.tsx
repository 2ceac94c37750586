import { buildRobotsTxt } from "~/features/community/sitemap";
import { getEnv } from "~/utils/env.server";
import { withDatabaseNet } from "~/utils/failures.server";

export const loader = withDatabaseNet(function loader() {
  return new Response(buildRobotsTxt(getEnv().SITE_URL), {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
});
