import type { Translator } from "../../lib/i18n/mod.ts";
import type { ChartDay } from "../../lib/panel/insights.ts";
import { moneyText, useT } from "./i18n.ts";

const WIDTH = 720;
const HEIGHT = 240;
const PAD = { top: 16, right: 44, bottom: 28, left: 64 };

/** A round axis maximum at or above `value`: 1, 2 or 5 times a power of ten. */
function niceMax(value: number): number {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

/** "21 Nov", "21 lis": a chart day as its language writes it. */
function shortDate(tr: Translator, date: string): string {
  return new Intl.DateTimeFormat(tr.language === "pl" ? "pl-PL" : "en-GB", {
    day: "numeric",
    month: "short",
    timeZone: "UTC",
  }).format(Date.parse(`${date}T00:00:00Z`));
}

function percent(tr: Translator, rate: number | null): string {
  return rate === null
    ? tr.t("panel.chart.noDecided")
    : tr.t("panel.chart.succeeded", { percent: Math.round(rate * 100) });
}

/**
 * Payment volume per day (bars, left axis) and success rate (line, right axis) as server-drawn
 * SVG, with the same numbers in a table for screen readers.
 */
export function VolumeChart(props: { days: ChartDay[]; currency: string }) {
  const { days, currency } = props;
  const tr = useT();
  const { t } = tr;
  const title = t("panel.chart.title", { currency, days: days.length });
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const max = niceMax(Math.max(...days.map((day) => day.volume)));
  const slot = plotWidth / days.length;
  const barWidth = Math.max(2, slot * 0.62);
  const x = (index: number) => PAD.left + index * slot + slot / 2;
  const yVolume = (volume: number) => PAD.top + plotHeight - (volume / max) * plotHeight;
  const yRate = (rate: number) => PAD.top + plotHeight - rate * plotHeight;
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  const labelEvery = Math.ceil(days.length / 6);

  // The rate line breaks on days without a decided payment.
  const segments: string[] = [];
  let current: string[] = [];
  days.forEach((day, index) => {
    if (day.successRate === null) {
      if (current.length > 0) segments.push(current.join(" "));
      current = [];
      return;
    }
    current.push(
      `${current.length === 0 ? "M" : "L"}${x(index).toFixed(1)},${
        yRate(day.successRate).toFixed(1)
      }`,
    );
  });
  if (current.length > 0) segments.push(current.join(" "));

  return (
    // Narrower than the chart, the figure scrolls: it takes focus so a keyboard scrolls it too.
    <figure class="chart" tabIndex={0} aria-label={title}>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        class="chart__svg"
        role="img"
        aria-labelledby="chart-title"
      >
        <title id="chart-title">{title}</title>
        {ticks.map((tick) => (
          <g>
            <line
              class="chart__grid"
              x1={PAD.left}
              x2={WIDTH - PAD.right}
              y1={yRate(tick)}
              y2={yRate(tick)}
            />
            <text class="chart__axis" x={PAD.left - 8} y={yRate(tick) + 4} text-anchor="end">
              {moneyText(tr, Math.round(max * tick), currency).replace(/[.,]00(?=\D*$)/, "")}
            </text>
            <text
              class="chart__axis chart__axis--rate"
              x={WIDTH - PAD.right + 8}
              y={yRate(tick) + 4}
            >
              {Math.round(tick * 100)}%
            </text>
          </g>
        ))}
        {days.map((day, index) => (
          <g>
            {day.volume > 0 && (
              <rect
                class="chart__bar"
                x={x(index) - barWidth / 2}
                y={yVolume(day.volume)}
                width={barWidth}
                height={PAD.top + plotHeight - yVolume(day.volume)}
                rx={2}
              >
                <title>
                  {shortDate(tr, day.date)}: {moneyText(tr, day.volume, currency)},{" "}
                  {percent(tr, day.successRate)}
                </title>
              </rect>
            )}
            {index % labelEvery === (days.length - 1) % labelEvery && (
              <text class="chart__axis" x={x(index)} y={HEIGHT - 8} text-anchor="middle">
                {shortDate(tr, day.date)}
              </text>
            )}
          </g>
        ))}
        {segments.map((path) => <path key={path} class="chart__line" d={path} />)}
        {days.map((day, index) =>
          day.successRate === null
            ? null
            : (
              <circle class="chart__dot" cx={x(index)} cy={yRate(day.successRate)} r={2.5}>
                <title>{shortDate(tr, day.date)}: {percent(tr, day.successRate)}</title>
              </circle>
            )
        )}
      </svg>
      <figcaption class="chart__legend">
        <span class="chart__key chart__key--bar">{t("panel.chart.volumeKey", { currency })}</span>
        <span class="chart__key chart__key--line">{t("panel.chart.rateKey")}</span>
      </figcaption>
      <table class="visually-hidden">
        <caption>{t("panel.chart.table")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("panel.chart.day")}</th>
            <th scope="col">{t("panel.chart.volume")}</th>
            <th scope="col">{t("panel.chart.succeededCol")}</th>
            <th scope="col">{t("panel.chart.failedCol")}</th>
          </tr>
        </thead>
        <tbody>
          {days.map((day) => (
            <tr>
              <th scope="row">{day.date}</th>
              <td>{moneyText(tr, day.volume, currency)}</td>
              <td>{day.succeeded}</td>
              <td>{day.failed}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
