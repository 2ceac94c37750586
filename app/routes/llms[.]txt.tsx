import { buildLlmsTxt, publicPlatformData } from "~/features/offer/public-data.server";
import { getEnv } from "~/utils/env.server";
import { SITE_NAME } from "~/utils/meta";
import { withDatabaseNet } from "~/utils/failures.server";

/** GET /llms.txt: the site described for language models, pointing at the platform pages and the JSON (decision 231). */
export const loader = withDatabaseNet(async function loader() {
  const data = await publicPlatformData(getEnv().SITE_URL, "en");
  return new Response(buildLlmsTxt(data, SITE_NAME), {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=300" },
  });
});
