/**
 * The app's word to the page cache (server/page-cache.ts): a page it may keep carries this header,
 * naming the cookies its bytes depend on (`language, theme, consent`). No header: never kept. The
 * app decides (app/utils/page-cache.server.ts); the server repeats none of its cookie names or routes.
 */
export const PAGE_CACHE_HEADER = "x-page-cache";
