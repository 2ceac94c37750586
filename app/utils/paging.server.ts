import { BadCursorError, type PageRequest } from "~db/keyset";
import { loadOrFail } from "./failures.server";
import { badRequest } from "./responses.server";

/** Rows per page in every list: what a phone renders at once without strain. */
const PAGE_SIZE = 50;

/** Search parameters that name a one-off step (a confirmation asked), never carried to other pages. */
const STEP_PARAMS = ["after", "before", "delete", "reject", "delete-conversation"];

/** The page a list URL asks for: `?after=` or `?before=` (opaque cursors the pager links carry). */
function pageRequestOf(url: URL, size = PAGE_SIZE): PageRequest {
  return { size, after: url.searchParams.get("after"), before: url.searchParams.get("before") };
}

/** This list's URL with its filters, on another page (`after`/`before` a cursor) or the first. */
export function listHref(url: URL, cursor?: { after?: string | null; before?: string | null }): string {
  const params = new URLSearchParams(url.search);
  for (const name of STEP_PARAMS) params.delete(name);
  if (cursor?.after) params.set("after", cursor.after);
  if (cursor?.before) params.set("before", cursor.before);
  const search = params.toString();
  return search ? `${url.pathname}?${search}` : url.pathname;
}

/** Where the list stands now (its filters and page), for an action's redirect back to it. */
export function currentListHref(url: URL): string {
  const params = new URLSearchParams(url.search);
  for (const name of STEP_PARAMS.slice(2)) params.delete(name);
  params.delete("index");
  const search = params.toString();
  return search ? `${url.pathname}?${search}` : url.pathname;
}

export interface PagerData {
  next: string | null;
  prev: string | null;
  total: { count: number; capped: boolean };
  shown: number;
}

/**
 * Loads one page (`load`, a repository lister given the page request) as `loadOrFail` does, and
 * answers 400 for a cursor no pager link carries. Returns the rows and what <Pager> shows.
 */
export async function loadPage<Row>(
  request: Request,
  failureKey: string,
  load: (page: PageRequest) => Promise<{
    rows: Row[];
    next: string | null;
    prev: string | null;
    total: { count: number; capped: boolean };
  }>,
  size = PAGE_SIZE,
): Promise<{ rows: Row[]; pager: PagerData }> {
  const url = new URL(request.url);
  const page = pageRequestOf(url, size);
  const result = await loadOrFail(request, failureKey, async () => {
    try {
      return await load(page);
    } catch (error) {
      if (error instanceof BadCursorError) throw await badRequest(request);
      throw error;
    }
  });
  return {
    rows: result.rows,
    pager: {
      next: result.next ? listHref(url, { after: result.next }) : null,
      prev: result.prev ? listHref(url, { before: result.prev }) : null,
      total: result.total,
      shown: result.rows.length,
    },
  };
}
