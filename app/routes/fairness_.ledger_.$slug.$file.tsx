import type { LoaderFunctionArgs } from "@remix-run/node";
import { ledgerDayFile, ledgerHead } from "~db/repositories/ledger.server";
import { getEnv } from "~/utils/env.server";
import { failure } from "~/utils/responses.server";
import { withDatabaseNet } from "~/utils/failures.server";

/** A closed day never changes (docs/ledger.md): cached for a year. Today's grows: briefly. */
const CLOSED = "public, max-age=31536000, immutable";
const OPEN = "public, max-age=10";
/** Lines sent in one chunk: few writes, and never more than this in memory. */
const CHUNK_BYTES = 64 * 1024;

/**
 * GET /fairness/ledger/{slug}/{YYYY-MM-DD}.jsonl: one platform's UTC day of the public ledger, read
 * from the database a page at a time as it is sent. GET /fairness/ledger/{slug}/head.json: the last
 * closed day and its file's SHA-256. Unknown platform, malformed, future or missing day: 404.
 */
export const loader = withDatabaseNet(async function loader({ params }: LoaderFunctionArgs) {
  const slug = params.slug ?? "";
  const file = params.file ?? "";
  const secret = getEnv().SESSION_SECRET;
  if (file === "head.json") {
    const head = await ledgerHead(secret, slug);
    if (!head) throw failure(404, "Not found");
    return Response.json(head, { headers: { "Cache-Control": "public, max-age=60", "Access-Control-Allow-Origin": "*" } });
  }
  const day = /^(\d{4}-\d{2}-\d{2})\.jsonl$/.exec(file)?.[1];
  const found = day ? await ledgerDayFile(secret, slug, day) : null;
  if (!found) throw failure(404, "Not found");
  const lines = found.lines();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const encoder = new TextEncoder();
      let chunk = "";
      while (chunk.length < CHUNK_BYTES) {
        const next = await lines.next();
        if (next.done) {
          if (chunk) controller.enqueue(encoder.encode(chunk));
          controller.close();
          return;
        }
        chunk += next.value;
      }
      controller.enqueue(encoder.encode(chunk));
    },
    async cancel() {
      await lines.return(undefined);
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": "application/x-ndjson; charset=utf-8",
      "Cache-Control": found.closed ? CLOSED : OPEN,
      "Access-Control-Allow-Origin": "*",
    },
  });
});
