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
    siteCss?: Buffer;
    /** Set when the server's draw endpoint could not draw (the database refused): the page answers why, without drawing again. */
    drawUnavailable?: unknown;
    /**
     * Gives this request's render place back (admission control, decision 212) before a long wait on
     * another site; the page is still rendered and sent. Absent when admission is off.
     */
    leaveAdmission?: () => void;
  }
}

export {};
