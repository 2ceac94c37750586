import { arrow } from "./community.css";

/** A carousel's or a strip's previous/next arrow: a labelled button that drives the list `controls`. */
export function ArrowButton({
  direction,
  controls,
  label,
  onClick,
}: {
  direction: "previous" | "next";
  controls: string;
  label: string;
  onClick: () => void;
}) {
  return (
    <button type="button" className={arrow} aria-controls={controls} aria-label={label} onClick={onClick}>
      <span aria-hidden="true">{direction === "previous" ? "‹" : "›"}</span>
    </button>
  );
}
