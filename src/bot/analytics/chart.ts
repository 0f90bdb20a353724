/**
 * The /stats chart as a PNG, drawn offline: chart.js on @napi-rs/canvas (prebuilt binaries, no Cairo, no
 * download). Two panels: cumulative profit against CLV-expected profit, and drawdown under it.
 */

import { type Canvas, createCanvas } from '@napi-rs/canvas';
import { BasicPlatform, Chart, type ChartConfiguration, registerables } from 'chart.js';
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

/** PNG bytes of NAV per unit at each strike (the /fund nav chart). */
export function renderNavChart(input: {
  title: string;
  points: ReadonlyArray<{ label: string; price: number }>;
}): Buffer {
  const out = createCanvas(WIDTH, PROFIT_HEIGHT);
  drawOnto(out, 0, PROFIT_HEIGHT, {
    type: 'line',
    data: {
      labels: input.points.map((p) => p.label),
      datasets: [
        {
          label: 'NAV per unit ($)',
          data: input.points.map((p) => p.price),
          borderColor: '#2563eb',
          borderWidth: 2,
          pointRadius: input.points.length > 60 ? 0 : 3,
        },
      ],
    },
    options: {
      plugins: { title: { display: true, text: input.title } },
      scales: { x: axis('strike'), y: axis('$ per unit') },
    },
  });
  return out.toBuffer('image/png');
}
