import "@remix-run/node";

declare module "@remix-run/node" {
  interface AppLoadContext {
    /** The client's address (socket, or proxy headers when TRUST_PROXY=1). */
    clientIp: string;
    /** Per-request nonce allowed by the Content-Security-Policy for inline scripts. */
    cspNonce: string;
    /** The policy the server set (absent in development); the app may widen it per page. */
    contentSecurityPolicy?: string;
    /**
     * The site's stylesheet as UTF-8 bytes, inlined in every page (absent in development, where Vite
     * serves it): the page's bytes carry it as they are (entry.server.tsx), React never encodes it.
     */
    siteCss?: string;
    /**
     * Admission control's side of the draw (server/admission.ts, decision 330). `backedUp(drawing)`:
     * whether the result page of one more draw (besides `drawing` being made) would wait past its
     * bound, so the draw is refused before it is made (503 with `retryAfterSeconds`); `made(location)`:
     * a draw is stored, its result page at `location` waits ahead of other pages and is never refused.
     */
    draws?: { backedUp: (drawing: number) => boolean; made: (location: string) => void; retryAfterSeconds: number };
    /**
     * Gives this request's render place back (admission control, decision 212) before a long wait on
     * another site; the page is still rendered and sent. Absent when admission is off.
     */
    leaveAdmission?: () => void;
  }
}

export {};
