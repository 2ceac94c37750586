/**
 * The header's icons, drawn inline instead of emoji (decision 252): a glyph the page's fonts lack
 * (☰, ☀️, 🌙, 🎁) sends the browser looking through the system's fonts for one that has it, during
 * the first layout; on this project's measuring machine, which has no emoji font, that search was a
 * third of the first layout on every page. Each is 1em square, in the text's colour unless drawn in
 * its own, and hidden from assistive technology (the control around it has the name).
 */
const frame = {
  width: "1em",
  height: "1em",
  viewBox: "0 0 24 24",
  "aria-hidden": true,
  focusable: false,
  style: { verticalAlign: "-0.125em" },
} as const;

export function MenuIcon() {
  return (
    <svg {...frame} fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round">
      <path d="M4 6h16M4 12h16M4 18h16" />
    </svg>
  );
}

export function SunIcon() {
  return (
    <svg {...frame} fill="#f5b301" stroke="#f5b301" strokeWidth="2" strokeLinecap="round">
      <circle cx="12" cy="12" r="4.5" />
      <path d="M12 1.5v2.5M12 20v2.5M1.5 12H4M20 12h2.5M4.6 4.6l1.8 1.8M17.6 17.6l1.8 1.8M4.6 19.4l1.8-1.8M17.6 6.4l1.8-1.8" />
    </svg>
  );
}

export function MoonIcon() {
  return (
    <svg {...frame} fill="#f5c542">
      <path d="M20.5 14.6A8.5 8.5 0 0 1 9.4 3.5a8.5 8.5 0 1 0 11.1 11.1z" />
    </svg>
  );
}

export function GiftIcon() {
  return (
    <svg {...frame}>
      <rect x="3" y="9" width="18" height="4" rx="1" fill="#e5484d" />
      <rect x="4.5" y="13" width="15" height="8.5" rx="1" fill="#e5484d" />
      <path d="M10.5 9h3v12.5h-3z" fill="#f5c542" />
      <path
        d="M12 9c-1.5-3-5.5-4.5-6.5-2.3C4.7 8.4 8 9 12 9zm0 0c1.5-3 5.5-4.5 6.5-2.3C19.3 8.4 16 9 12 9z"
        fill="none"
        stroke="#f5c542"
        strokeWidth="1.6"
      />
    </svg>
  );
}
