import { Link } from "@remix-run/react";
import { assignInlineVars } from "@vanilla-extract/dynamic";
import { useCallback, useEffect, useId, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { gradientFrom, gradientTo } from "~/styles/theme.css";
import { card, flush, muted, scriptOnly, snapItem, snapList, visuallyHidden } from "~/styles/ui.css";
import { ArrowButton } from "./arrow-button";
import * as styles from "./community.css";
import { buttonClass } from "~/styles/recipes";
import { OfferLead } from "~/features/offer/offer-lead";
import { PlatformLogo, type BrandMark } from "~/features/codes/platform-logo";

const AUTO_ADVANCE_MS = 4000;

export interface CarouselPlatform {
  slug: string;
  name: string;
  emoji: string;
  /** The brand's mark where simple-icons has one (else the emoji shows). */
  mark: BrandMark | null;
  /** The admin's uploaded logos, which override the mark. */
  logoLight: string | null;
  logoDark: string | null;
  from: string;
  to: string;
  /** What the offer gives the new customer, or null where none is set. */
  bonus: string | null;
  /** How many codes a draw could serve now. */
  available: number;
}

/**
 * The home carousel. Its base is a native scroll-snap list: complete without JavaScript (every
 * platform is a plain link), and native scrolling keeps every link reachable by keyboard and touch
 * with it. JavaScript adds arrows, dots, looping and an auto-advance that starts once the visitor
 * moves, touches, scrolls or types on the page, stops for good on any interaction with the carousel,
 * and never runs for people who ask for reduced motion.
 */
export function PlatformCarousel({ platforms }: { platforms: CarouselPlatform[] }) {
  const { t } = useTranslation("home");
  const listId = useId();
  const [index, setIndex] = useState(0);
  // Two slides at a time from 768 px, one below. Read from the media query when it is needed; the
  // state (whether there is anything to play) follows at the visitor's first sign of life and on
  // later changes (a rotated tablet), so hydration renders nothing twice (decision 276). What shows
  // differs by width is CSS's: the last dot, and the position text's count.
  const perViewRef = useRef(2);
  const reducedMotionRef = useRef(false);
  // Bumped when a media query changes after mount, to render with the refs' new values.
  const [, setMediaChanges] = useState(0);
  const [stopped, setStopped] = useState(false);
  const [hovered, setHovered] = useState(false);
  const [announce, setAnnounce] = useState(false);
  // The auto-advance waits for the visitor's first sign of life on the page (a pointer move, a
  // touch, a scroll, a key): a page that is only loaded, or read without moving, stays still and
  // costs nothing after hydration (decision 252), like the game's sky (decision 250).
  const [awake, setAwake] = useState(false);
  const indexRef = useRef(0);
  // The scrollend of our own scrollTo must not override the position we asked for.
  const programmatic = useRef(false);

  const count = platforms.length;
  /** The last position a slide can start at now: from the media query, whatever was rendered. */
  const currentLastIndex = useCallback(() => Math.max(0, count - perViewRef.current), [count]);

  useEffect(() => {
    const wide = window.matchMedia("(min-width: 768px)");
    const motion = window.matchMedia("(prefers-reduced-motion: reduce)");
    const read = () => {
      perViewRef.current = wide.matches ? 2 : 1;
      reducedMotionRef.current = motion.matches;
    };
    // At mount: kept, not rendered (nothing on screen depends on it before the visitor acts).
    read();
    const update = () => {
      read();
      setMediaChanges((n) => n + 1);
    };
    wide.addEventListener("change", update);
    motion.addEventListener("change", update);
    return () => {
      wide.removeEventListener("change", update);
      motion.removeEventListener("change", update);
    };
  }, []);

  const listRef = useRef<HTMLUListElement>(null);

  const goTo = useCallback(
    (target: number) => {
      const list = listRef.current;
      const last = currentLastIndex();
      const next = target > last ? 0 : target < 0 ? last : target;
      indexRef.current = next;
      setIndex(next);
      programmatic.current = true;
      const slide = list?.children[next] as HTMLElement | undefined;
      if (list && slide) {
        list.scrollTo({
          left: slide.offsetLeft - (list.firstElementChild as HTMLElement).offsetLeft,
          behavior: reducedMotionRef.current ? "auto" : "smooth",
        });
      }
    },
    [currentLastIndex],
  );

  // Follow the visitor's own scrolling (touch, trackpad, focus moving to a link).
  useEffect(() => {
    const list = listRef.current;
    if (!list) return;
    const sync = () => {
      if (programmatic.current) {
        programmatic.current = false;
        return;
      }
      const first = list.children[0] as HTMLElement | undefined;
      const second = list.children[1] as HTMLElement | undefined;
      if (!first || !second) return;
      const step = second.offsetLeft - first.offsetLeft;
      const last = currentLastIndex();
      const atEnd = list.scrollLeft + list.clientWidth >= list.scrollWidth - 2;
      const current = atEnd ? last : Math.min(last, Math.max(0, Math.round(list.scrollLeft / step)));
      indexRef.current = current;
      setIndex(current);
    };
    list.addEventListener("scrollend", sync);
    return () => list.removeEventListener("scrollend", sync);
  }, [currentLastIndex]);

  useEffect(() => {
    if (awake) return;
    const events = ["pointermove", "pointerdown", "touchstart", "scroll", "keydown"] as const;
    const wake = () => setAwake(true);
    for (const name of events) window.addEventListener(name, wake, { passive: true, once: true });
    return () => {
      for (const name of events) window.removeEventListener(name, wake);
    };
  }, [awake]);

  // `awake` only turns true in the browser after hydration, re-rendering with what the media queries
  // say; before it the refs hold the server's values (two-up, motion allowed) and nothing plays.
  const playing = awake && !stopped && !reducedMotionRef.current && currentLastIndex() > 0;
  useEffect(() => {
    if (!playing || hovered) return;
    const timer = setInterval(() => goTo(indexRef.current + 1), AUTO_ADVANCE_MS);
    return () => clearInterval(timer);
  }, [playing, hovered, goTo]);

  const stop = () => {
    setStopped(true);
    setAnnounce(true);
  };

  // The slides change only with the platforms (the position, the dots and the live text change on
  // their own): the same elements from one render to the next. Their group role and label are in the
  // server's HTML too.
  const slides = useMemo(
    () =>
      platforms.map((p, i) => (
        <li key={p.slug} className={snapItem} data-testid="platform-slide">
          <div
            className={`${card} ${styles.platformCard}`}
            style={assignInlineVars({ [gradientFrom]: p.from, [gradientTo]: p.to })}
            role="group"
            aria-roledescription={t("carousel.slide")}
            aria-label={t("carousel.slideLabel", { index: i + 1, count, name: p.name })}
          >
            <h3 className={`${flush} ${styles.markedTitle}`}>
              <PlatformLogo name={p.name} emoji={p.emoji} light={p.logoLight} dark={p.logoDark} mark={p.mark} size="card" />
              {p.name}
            </h3>
            <OfferLead text={p.bonus} />
            <p className={`${flush} ${muted}`} data-testid="platform-available">
              {p.available > 0 ? t("platforms.available", { count: p.available }) : t("platforms.none")}
            </p>
            <Link to={`/${p.slug}`} className={buttonClass({ tone: "gradient" })}>
              {t("platforms.getCode", { name: p.name })}
            </Link>
          </div>
        </li>
      )),
    [platforms, count, t],
  );

  if (count === 0) {
    return <p data-testid="platform-empty">{t("platforms.empty")}</p>;
  }

  // The same elements before and after hydration (only attributes and handlers change), so nothing
  // moves while a slow phone hydrates. Arrows and dots are hidden without JavaScript (scriptOnly);
  // how many of them show at each width is CSS's job, which knows the width before any script runs.
  return (
    // The handlers catch events bubbling from the links and buttons inside: any of them stops the auto-advance.
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
    <div
      className={styles.carousel}
      // A group, not a second region: the page's section around it is the region, named by its heading.
      role="group"
      aria-label={t("platforms.heading")}
      // In the server's HTML too (its slides already say "slide"): hydration changes nothing here.
      aria-roledescription={t("carousel.roledescription")}
      data-testid="platform-carousel"
      data-index={index}
      data-playing={playing && !hovered ? "true" : "false"}
      onPointerDown={stop}
      onFocus={stop}
      onKeyDown={stop}
      onWheel={stop}
      onTouchStart={stop}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
    >
      <ul ref={listRef} id={listId} className={`${snapList} ${styles.carouselList}`} data-testid="platform-list">
        {slides}
      </ul>
      {count > 1 ? (
        <div className={`${styles.carouselControls} ${scriptOnly} ${count === 2 ? styles.narrowOnly : ""}`}>
          {/* The arrows and dots, centred on the carousel whatever the pause button's width beside them. */}
          <div className={styles.carouselNav}>
            <ArrowButton direction="previous" controls={listId} label={t("carousel.previous")} onClick={() => goTo(index - 1)} />
            <ol className={styles.dots}>
              {/* One dot per first-visible slide: every slide on a phone, all but the last two-up. */}
              {platforms.map((p, i) => (
                <li key={p.slug} className={i === count - 1 ? styles.narrowOnly : undefined}>
                  <button
                    type="button"
                    className={styles.dot}
                    aria-controls={listId}
                    aria-current={i === index ? "true" : undefined}
                    aria-label={t("carousel.goTo", { index: i + 1 })}
                    data-testid="carousel-dot"
                    onClick={() => goTo(i)}
                  />
                </li>
              ))}
            </ol>
            <ArrowButton direction="next" controls={listId} label={t("carousel.next")} onClick={() => goTo(index + 1)} />
          </div>
          {/* Hidden, not removed, while not playing: the arrows must not move under a pointer mid-click. */}
          <button
            type="button"
            className={`${buttonClass({ tone: "ghost" })} ${styles.pauseButton} ${playing ? "" : styles.pauseButtonIdle}`}
            onClick={stop}
          >
            {t("carousel.stop")}
          </button>
        </div>
      ) : null}
      {/* The position, announced once the visitor has stopped the motion; not there without JS. */}
      <p className={`${visuallyHidden} ${scriptOnly}`} aria-live={announce ? "polite" : "off"} aria-atomic="true">
        {/* Positions: one per slide on a phone, all but the last two-up; the width picks the text. */}
        <span className={styles.narrowOnly}>{t("carousel.position", { index: index + 1, count })}</span>
        <span className={styles.wideOnly}>{t("carousel.position", { index: index + 1, count: Math.max(1, count - 1) })}</span>
      </p>
    </div>
  );
}
