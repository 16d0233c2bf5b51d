/**
 * A small bar chart drawn by hand in SVG: one bar per day, the highest value and zero on the
 * vertical axis, a few dates under the bars. The picture is for the eyes; screen readers get the
 * same numbers from the table the caller puts next to it.
 */

export interface Bar {
  label: string;
  value: number;
}

const WIDTH = 480;
const HEIGHT = 200;
const LEFT = 80;
const RIGHT = 20;
const BOTTOM = 24;
const TOP = 10;

export function BarChart({
  title,
  bars,
  format,
  axisFormat = format,
}: {
  title: string;
  bars: Bar[];
  /** A bar's value in its tooltip. */
  format: (value: number) => string;
  /** A value on the vertical axis (shorter). */
  axisFormat?: (value: number) => string;
}) {
  const max = Math.max(0, ...bars.map((bar) => bar.value));
  const plotWidth = WIDTH - LEFT - RIGHT;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const bottom = TOP + plotHeight;
  const step = bars.length > 0 ? plotWidth / bars.length : plotWidth;
  const barWidth = Math.max(1, step * 0.7);
  const labelEvery = Math.max(1, Math.ceil(bars.length / 5));
  const y = (value: number) => bottom - (max > 0 ? (value / max) * plotHeight : 0);

  return (
    <figure className="admin-chart">
      <figcaption className="admin-chart__title">{title}</figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} className="admin-chart__svg" aria-hidden="true">
        <line x1={LEFT} x2={WIDTH - RIGHT} y1={bottom} y2={bottom} className="admin-chart__axis" />
        <line x1={LEFT} x2={LEFT} y1={TOP} y2={bottom} className="admin-chart__axis" />
        <line x1={LEFT} x2={WIDTH - RIGHT} y1={TOP} y2={TOP} className="admin-chart__grid" />
        <text x={LEFT - 6} y={TOP + 4} textAnchor="end" className="admin-chart__label">
          {axisFormat(max)}
        </text>
        <text x={LEFT - 6} y={bottom} textAnchor="end" className="admin-chart__label">
          {axisFormat(0)}
        </text>
        {bars.map((bar, index) => {
          const x = LEFT + index * step + (step - barWidth) / 2;
          const top = y(bar.value);
          return (
            <g key={bar.label}>
              <rect
                x={x}
                y={top}
                width={barWidth}
                height={Math.max(0, bottom - top)}
                className="admin-chart__bar"
              >
                <title>{`${bar.label}: ${format(bar.value)}`}</title>
              </rect>
              {index % labelEvery === 0 ? (
                <text x={x + barWidth / 2} y={HEIGHT - 6} textAnchor="middle" className="admin-chart__label">
                  {bar.label}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
