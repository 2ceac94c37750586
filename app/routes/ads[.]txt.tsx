import { getSettings } from "~db/repositories/settings.server";
import { publisherId } from "~/features/consent/tags";
import { withDatabaseNet } from "~/utils/failures.server";

/** ads.txt from the `adsense_account_id` setting (Google's line); not found while it is unset. */
export const loader = withDatabaseNet(async function loader() {
  const id = publisherId((await getSettings()).adsense_account_id);
  if (!id) return new Response("Not found\n", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return new Response(`google.com, ${id}, DIRECT, f08c47fec0942fa0\n`, {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
});
