/**
 * Pages that hold something only one visitor may see (decision 323): a code's owner page (its
 * private link is the address), a draw page (its result's address names the draw, and the result
 * comes on the same page), and the share form (its thank-you shows the new private link). No
 * analytics or ad tag ever runs there, consent or not: a tag reads the page's address and content.
 * A document that started with tags never moves to one of them without a full load (the site
 * links' listener lets the browser go there itself), since the tags of the first page stay loaded.
 */
export function isPrivatePage(pathname: string): boolean {
  return (
    pathname.startsWith("/my-code/") ||
    pathname === "/random" ||
    /^\/[^/]+\/get-code\/?$/.test(pathname) ||
    pathname === "/submit"
  );
}
