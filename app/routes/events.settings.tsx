import type { LoaderFunctionArgs } from "@remix-run/node";
import { subscribe } from "~db/events.server";

/** Server-sent events: live setting changes (enable_theme_toggle) for open pages. */
export function loader({ request }: LoaderFunctionArgs) {
  const encoder = new TextEncoder();
  let cleanup = () => {};
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (chunk: string) => {
        try {
          controller.enqueue(encoder.encode(chunk));
        } catch {
          cleanup();
        }
      };
      send("retry: 10000\n\n");
      const unsubscribe = subscribe("setting", (payload) => {
        if (payload.key === "enable_theme_toggle") send(`event: setting\ndata: ${JSON.stringify(payload)}\n\n`);
      });
      // A comment every 25 s keeps proxies from closing an idle stream.
      const heartbeat = setInterval(() => send(": ping\n\n"), 25_000);
      cleanup = () => {
        clearInterval(heartbeat);
        unsubscribe();
      };
      request.signal.addEventListener("abort", () => {
        cleanup();
        try {
          controller.close();
        } catch {
          // already closed
        }
      });
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
}
