/**
 * The draw endpoint (server/draw-endpoint.ts, decision 041): the draw forms post to
 * `{draw page}/draw`, which the server answers without Remix. Without JavaScript the browser
 * follows its 303 (to the result) or 307 (back to the draw page's action); the enhanced form asks
 * for JSON, `{"location": "/…?draw=…"}` when something was drawn, `{"location": null}` when not.
 */
export function drawEndpointPath(drawPage: string): string {
  return `${drawPage}/draw`;
}

/** The result page's address from the endpoint's JSON answer; null when nothing was drawn or the answer is not one. */
export async function readDrawAnswer(response: Response): Promise<string | null> {
  if (!response.ok || !response.headers.get("content-type")?.startsWith("application/json")) return null;
  const answer: unknown = await response.json().catch(() => null);
  const location = answer && typeof answer === "object" && "location" in answer ? answer.location : null;
  // Only an address on this site: a path, never `//host`.
  return typeof location === "string" && location.startsWith("/") && !location.startsWith("//") ? location : null;
}

/** Draws through the endpoint (the enhanced form); null when nothing was drawn or the request failed. */
export async function drawThroughEndpoint(drawPage: string, form: HTMLFormElement): Promise<string | null> {
  try {
    const response = await fetch(drawEndpointPath(drawPage), {
      method: "POST",
      body: new URLSearchParams(new FormData(form) as unknown as Record<string, string>),
      headers: { Accept: "application/json" },
      credentials: "same-origin",
    });
    return await readDrawAnswer(response);
  } catch {
    return null;
  }
}
