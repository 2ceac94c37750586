import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable, type AppLoadContext, type EntryContext } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { analyticsForRequest } from "./features/consent/consent.server";
import { cspSources, extendCsp } from "./features/consent/tags";
import { getLanguage, i18nForRender } from "./i18n/i18next.server";
import { markKeepablePage } from "./utils/page-cache.server";
import { NonceProvider } from "./utils/nonce";
import { reactOutput } from "./utils/react-output.server";
import { SiteCssProvider } from "./utils/site-css";
import { redactedPath } from "../server/request-log";

export const streamTimeout = 5_000;

// The Express server is a module of this build: the runner (server/index.ts) starts it (decision 403).
export { startServer } from "../server/app";

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // Given to the tree by I18nextProvider, so no global instance is set (requests run concurrently).
  const instance = i18nForRender(await getLanguage(request));

  const nonce = loadContext.cspNonce;
  // Google's hosts join the policy only on pages that render their tags (configured and consented).
  const analytics = (await analyticsForRequest(request)).active;
  if (analytics && loadContext.contentSecurityPolicy) {
    responseHeaders.set("Content-Security-Policy", extendCsp(loadContext.contentSecurityPolicy, cspSources(analytics)));
  }
  markKeepablePage(request, responseStatusCode, responseHeaders, remixContext);
  // Crawlers and link previews get the whole document at once; browsers get it streamed.
  const readyEvent = isbot(request.headers.get("user-agent") ?? "") ? "onAllReady" : "onShellReady";

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <SiteCssProvider value={loadContext.siteCss ?? ""}>
          <I18nextProvider i18n={instance}>
            <RemixServer context={remixContext} url={request.url} abortDelay={streamTimeout} nonce={nonce} />
          </I18nextProvider>
        </SiteCssProvider>
      </NonceProvider>,
      {
        nonce,
        [readyEvent]() {
          shellRendered = true;
          // Clear the abort timer once rendering is done, or every rendered tree stays alive until it fires.
          const body = new PassThrough();
          body.once("end", () => clearTimeout(timer));
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
          pipe(reactOutput(body));
        },
        onShellError(error: unknown) {
          clearTimeout(timer);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
    const timer = setTimeout(abort, streamTimeout + 1000);
  });
}

const OLD_DATA_REQUEST_NOTICE = "Warning: Single fetch-enabled apps should not be making ?_data requests";

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  // Remix's own 4xx (a POST to a page without an action: 405) is an answer, not a server error.
  if (isRouteErrorResponse(error) && error.status < 500) return;
  // Remix's notice that someone asked for `?_data=` (an old client, or anyone typing it): it is
  // answered all the same, and is nothing the server did wrong.
  if (error instanceof Error && error.message.startsWith(OLD_DATA_REQUEST_NOTICE)) return;
  console.error(`[error] ${request.method} ${redactedPath(new URL(request.url).pathname)}`, error);
}
