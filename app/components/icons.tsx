import * as icons from "./icons.css";

/**
 * The header's icons (menu, brand, theme), drawn by the stylesheet instead of emoji (decision 252):
 * a glyph the page's fonts lack (☰, ☀️, 🌙, 🎁) sends the browser looking through the system's fonts
 * during the first layout; on the measuring machine, which has no emoji font, that search was a
 * third of the first layout on every page. Each is 1em square and hidden from assistive technology
 * (the control around it has the name).
 */
export const MenuIcon = () => <span aria-hidden="true" className={icons.menu} />;
export const SunIcon = () => <span aria-hidden="true" className={icons.sun} />;
export const MoonIcon = () => <span aria-hidden="true" className={icons.moon} />;
export const GiftIcon = () => <span aria-hidden="true" className={icons.gift} />;
