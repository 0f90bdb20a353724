/**
 * The /stats chart as a PNG, drawn offline: chart.js on @napi-rs/canvas (prebuilt binaries, no Cairo, no
 * download). Two panels: cumulative profit against CLV-expected profit, and drawdown under it.
 */

import { type Canvas, createCanvas } from '@napi-rs/canvas';
import { BasicPlatform, Chart, type ChartConfiguration, registerables } from 'chart.js';
import { chartTickIn, zoneOffsetMs } from '../model/dates.js';
import { type CurvePoint, thinCurve } from './series.js';

Chart.register(...registerables);

/** More points than a 900-pixel-wide line can show only cost render time. */
const MAX_POINTS = 600;
const WIDTH = 900;
const PROFIT_HEIGHT = 380;
const DRAWDOWN_HEIGHT = 180;

const dollars = (cents: number) => cents / 100;

/** chart.js clears to transparent; a PNG on Discord's dark theme needs its own background. */
const whiteBackground = {
  id: 'whiteBackground',
  beforeDraw(chart: Chart) {
    const { ctx, width, height } = chart;
    ctx.save();
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, width, height);
    ctx.restore();
  },
};

/** Draws one chart onto `target` at `top`; the chart's own canvas is let go afterwards. */
function drawOnto(target: Canvas, top: number, height: number, config: ChartConfiguration<'line'>): void {
  const canvas = createCanvas(target.width, height);
  // chart.js only needs the 2D context API, which @napi-rs/canvas implements.
  const chart = new Chart(canvas.getContext('2d') as unknown as CanvasRenderingContext2D, {
    ...config,
    platform: BasicPlatform,
    plugins: [whiteBackground],
    options: { ...config.options, responsive: false, animation: false, devicePixelRatio: 1 },
  });
  target.getContext('2d').drawImage(canvas, 0, top);
  // destroy() clears the chart's canvas, so only after copying it.
  chart.destroy();
}

const axis = (title: string) => ({ title: { display: true, text: title }, ticks: { maxTicksLimit: 8 } });

export interface ChartInput {
  title: string;
  points: readonly CurvePoint[];
}

/** PNG bytes of the profit and drawdown panels, stacked. */
export function renderStatsChart(input: ChartInput): Buffer {
  const pts = thinCurve(input.points, MAX_POINTS);
  const labels = pts.map((p) => p.n);
  const out = createCanvas(WIDTH, PROFIT_HEIGHT + DRAWDOWN_HEIGHT);
  drawOnto(out, 0, PROFIT_HEIGHT, {
    type: 'line',
    data: {
      labels,
      datasets: [
        {
          label: 'Profit ($)',
          data: pts.map((p) => dollars(p.profitCents)),
          borderColor: '#2563eb',
          borderWidth: 2,
          pointRadius: 0,
        },
        {
          label: 'CLV-expected profit ($)',
          data: pts.map((p) => dollars(p.expectedCents)),
          borderColor: '#16a34a',
          borderDash: [6, 4],
          borderWidth: 2,
          pointRadius: 0,
        },
      ],
    },
    options: {
      plugins: { title: { display: true, text: input.title } },
      scales: { x: axis('settled bets'), y: axis('$') },
    },
  });
  drawOnto(out, PROFIT_HEIGHT, DRAWDOWN_HEIGHT, {
    type: 'line',
    data: {
      labels,
      datasets: [
        {
          label: 'Drawdown ($)',
          data: pts.map((p) => -dollars(p.drawdownCents)),
          borderColor: '#dc2626',
          backgroundColor: 'rgba(220, 38, 38, 0.25)',
          fill: 'origin',
          borderWidth: 1,
          pointRadius: 0,
        },
      ],
    },
    options: { scales: { x: axis('settled bets'), y: axis('$') } },
  });
  return out.toBuffer('image/png');
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
/** Tick steps a time axis picks from: the smallest that keeps to eight ticks. */
const TICK_STEPS = [
  MINUTE_MS,
  5 * MINUTE_MS,
  15 * MINUTE_MS,
  30 * MINUTE_MS,
  HOUR_MS,
  3 * HOUR_MS,
  6 * HOUR_MS,
  12 * HOUR_MS,
  DAY_MS,
  2 * DAY_MS,
  7 * DAY_MS,
  14 * DAY_MS,
  30 * DAY_MS,
];
const MAX_TICKS = 8;

/**
 * Ticks of a time axis from `min` to `max`, on round times of the zone (whole hours, midnights), each labelled by
 * dates.ts in that zone. chart.js's own time scale needs a date adapter; a linear scale with these ticks does not.
 */
export function timeTicks(min: number, max: number, zone: string): Array<{ value: number; label: string }> {
  const span = Math.max(max - min, MINUTE_MS);
  const step = TICK_STEPS.find((s) => span / s <= MAX_TICKS) ?? Math.ceil(span / MAX_TICKS / DAY_MS) * DAY_MS;
  const offset = zoneOffsetMs(min, zone);
  const ticks: Array<{ value: number; label: string }> = [];
  for (let t = Math.ceil((min + offset) / step) * step - offset; t <= max; t += step) {
    ticks.push({ value: t, label: chartTickIn(t, zone, step < DAY_MS) });
  }
  return ticks;
}

/**
 * PNG bytes of NAV per unit at each strike (the /fund nav chart), x by time: a minute between strikes draws a
 * minute's width and a day a day's, with ticks dated in the server's zone.
 */
export function renderNavChart(input: {
  title: string;
  timezone: string;
  points: ReadonlyArray<{ at: number; price: number }>;
}): Buffer {
  const times = input.points.map((p) => p.at);
  // One strike alone gets an hour either side, so it sits mid-chart rather than on a zero-width axis.
  const lone = times.length < 2 || Math.min(...times) === Math.max(...times);
  const min = lone ? (times[0] ?? 0) - HOUR_MS : Math.min(...times);
  const max = lone ? (times[0] ?? 0) + HOUR_MS : Math.max(...times);
  const ticks = timeTicks(min, max, input.timezone);
  const out = createCanvas(WIDTH, PROFIT_HEIGHT);
  drawOnto(out, 0, PROFIT_HEIGHT, {
    type: 'line',
    data: {
      datasets: [
        {
          label: 'NAV per unit ($)',
          data: input.points.map((p) => ({ x: p.at, y: p.price })),
          borderColor: '#2563eb',
          borderWidth: 2,
          pointRadius: input.points.length > 60 ? 0 : 3,
          // The first and last strikes sit on the axis' ends: their dots are drawn whole.
          clip: false,
        },
      ],
    },
    options: {
      layout: { padding: { right: 8 } },
      plugins: { title: { display: true, text: input.title } },
      scales: {
        x: {
          type: 'linear',
          min,
          max,
          title: { display: true, text: `strike time (${input.timezone})` },
          afterBuildTicks: (scale) => {
            scale.ticks = ticks.map((t) => ({ value: t.value }));
          },
          ticks: {
            autoSkip: false,
            maxRotation: 0,
            callback: (value) => ticks.find((t) => t.value === value)?.label ?? '',
          },
        },
        y: axis('$ per unit'),
      },
    },
  });
  return out.toBuffer('image/png');
}
