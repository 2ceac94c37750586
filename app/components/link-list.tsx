import { SiteLink } from "./site-link";
/** A short list of site links (footer, page endings): one `<li>` per link. */
export function LinkList({ links, className }: { links: ReadonlyArray<{ to: string; label: string }>; className: string }) {
  return (
    <ul className={className}>
      {links.map((link) => (
        <li key={link.to}>
          <SiteLink to={link.to}>{link.label}</SiteLink>
        </li>
      ))}
    </ul>
  );
}
