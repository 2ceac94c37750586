import * as styles from "./trust.css";

/**
 * Serves per code in rotation, as a small bar chart rendered on the server (plain SVG, no script).
 * Codes are never named: bars are sorted from most to least served. The loader sends a bounded list
 * (the most served codes and the least served one: listPlatformFairness). Its label is a visible
 * caption and its scale (the most turns, and zero) is HTML text beside it, at the page's own sizes:
 * text inside the SVG shrank with the chart to 6 px on a phone.
 */
const WIDTH = 320;
const HEIGHT = 96;

export function ServesChart({ serves, label, testId }: { serves: number[]; label: string; testId?: string }) {
  const bars = serves;
  const max = Math.max(1, ...bars);
  const slot = WIDTH / Math.max(bars.length, 1);
  const gap = slot > 4 ? 1 : 0;
  return (
    // One image to assistive technology, named by its caption's words (an image's children are not read).
    <div className={styles.chartFigure} role="img" aria-label={label} data-testid={testId} data-bars={bars.length}>
      <p className={styles.chartCaption}>{label}</p>
      <div className={styles.chartPlot}>
        {/* The scale, for the eye: the label says the most and fewest. */}
        <span className={styles.chartScale}>
          <span data-testid="chart-max">{max}</span>
          <span>0</span>
        </span>
        <svg viewBox={`0 0 ${WIDTH} ${HEIGHT + 1}`} width="100%" className={styles.chart} aria-hidden="true" focusable="false">
          <line x1={0} y1={HEIGHT + 0.5} x2={WIDTH} y2={HEIGHT + 0.5} stroke="currentColor" strokeOpacity={0.4} />
          {bars.map((n, i) => {
            const h = n === 0 ? 1 : Math.max(2, Math.round((n / max) * (HEIGHT - 4)));
            return (
              <rect
                key={i}
                x={round(i * slot + gap / 2)}
                y={HEIGHT - h}
                width={round(Math.max(1, slot - gap))}
                height={h}
                fill="currentColor"
                fillOpacity={0.75}
                rx={slot > 6 ? 2 : 0}
              />
            );
          })}
        </svg>
      </div>
    </div>
  );
}

/** Two decimals are plenty in a 320-unit box, and keep the page small. */
const round = (n: number) => Math.round(n * 100) / 100;
