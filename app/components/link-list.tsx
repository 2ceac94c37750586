import { Link } from "@remix-run/react";
/** A short list of site links (footer, page endings): one `<li>` per link. */
export function LinkList({ links, className }: { links: ReadonlyArray<{ to: string; label: string }>; className: string }) {
  return (
    <ul className={className}>
      {links.map((link) => (
        <li key={link.to}>
          <Link to={link.to}>{link.label}</Link>
        </li>
      ))}
    </ul>
  );
}
