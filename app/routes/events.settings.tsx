import type { LoaderFunctionArgs } from "@remix-run/node";
import { subscribe } from "~db/events.server";
import { getSetting } from "~db/repositories/settings.server";
import { withDatabaseNet } from "~/utils/failures.server";

const LIVE_KEY = "enable_theme_toggle";
const settingEvent = (payload: { key: string; value: string }) => `event: setting\ndata: ${JSON.stringify(payload)}\n\n`;

/**
 * Server-sent events: live setting changes (enable_theme_toggle) for open pages. The first event
 * carries the current value: a page reopens its stream when it becomes visible again (it closes it
 * while hidden, decision 280), and learns at once what changed meanwhile. How many streams are open at
 * once is bounded before this route (server/event-streams.ts). Hand-written: remix-utils' eventStream
 * sends neither `retry:` nor heartbeat comments, and throws when an event comes after the client left.
 */
export const loader = withDatabaseNet(function loader({ request }: LoaderFunctionArgs) {
  const encoder = new TextEncoder();
  let cleanup = () => {};
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (chunk: string) => {
        try {
          controller.enqueue(encoder.encode(chunk));
        } catch {
          cleanup();
        }
      };
      // Subscribed before the current value is read: a change in between is sent, and the value read
      // (older than it) is not.
      let changed = false;
      const unsubscribe = subscribe("setting", (payload) => {
        if (payload.key !== LIVE_KEY) return;
        changed = true;
        send(settingEvent(payload));
      });
      // A comment every 25 s keeps proxies from closing an idle stream.
      const heartbeat = setInterval(() => send(": ping\n\n"), 25_000);
      cleanup = () => {
        clearInterval(heartbeat);
        unsubscribe();
      };
      const close = () => {
        cleanup();
        try {
          controller.close();
        } catch {
          // already closed
        }
      };
      if (request.signal.aborted) return close();
      request.signal.addEventListener("abort", close);
      let current = "";
      try {
        current = settingEvent({ key: LIVE_KEY, value: await getSetting(LIVE_KEY) });
      } catch {
        // the database cannot answer now: the stream still brings the next change
      }
      if (!request.signal.aborted) send(`retry: 10000\n\n${changed ? "" : current}`);
    },
    cancel() {
      cleanup();
    },
  });
  return new Response(stream, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store",
      Connection: "keep-alive",
      "X-Accel-Buffering": "no",
    },
  });
});
