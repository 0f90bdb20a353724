import { loadImage } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { renderNavChart, renderStatsChart, timeTicks } from '../../../../src/bot/analytics/chart.js';
import { profitCurve } from '../../../../src/bot/analytics/series.js';
import { bet } from './facts.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('the /stats chart', () => {
  const points = profitCurve(
    Array.from({ length: 40 }, (_, i) =>
      bet({
        settledAt: i,
        stakeCents: 1000,
        oddsTaken: 2.1,
        closeOdds: 2,
        ...(i % 3 ? { status: 'lost', returnCents: 0 } : { status: 'won', returnCents: 2100 }),
      }),
    ),
  );

  it('is a PNG of the profit panel over the drawdown panel (900 × 560)', async () => {
    const png = renderStatsChart({ title: 'ann · 30 days', points });
    expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    const img = await loadImage(png);
    expect([img.width, img.height]).toEqual([900, 560]);
  });

  it('draws lines, not a blank image (some pixels are neither white nor transparent)', async () => {
    const { createCanvas } = await import('@napi-rs/canvas');
    const img = await loadImage(renderStatsChart({ title: 't', points }));
    const c = createCanvas(img.width, img.height);
    const ctx = c.getContext('2d');
    ctx.drawImage(img, 0, 0);
    const data = ctx.getImageData(0, 0, img.width, img.height).data;
    let coloured = 0;
    for (let i = 0; i < data.length; i += 4) {
      const [r, g, b] = [data[i] as number, data[i + 1] as number, data[i + 2] as number];
      if (Math.abs(r - g) > 60 || Math.abs(g - b) > 60) coloured++;
    }
    expect(coloured).toBeGreaterThan(500);
  });

  it('renders an empty history as an empty chart instead of failing', () => {
    expect(renderStatsChart({ title: 'nobody', points: [] }).subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  });
});

/** x of the leftmost, topmost and rightmost blue (line) pixels of a PNG. */
async function blueExtent(png: Buffer): Promise<{ left: number; peak: number; right: number }> {
  const { createCanvas } = await import('@napi-rs/canvas');
  const img = await loadImage(png);
  const c = createCanvas(img.width, img.height);
  const ctx = c.getContext('2d');
  ctx.drawImage(img, 0, 0);
  const data = ctx.getImageData(0, 0, img.width, img.height).data;
  let [left, right, peak, peakY] = [Number.POSITIVE_INFINITY, -1, -1, Number.POSITIVE_INFINITY];
  // Below the title and legend (whose swatch is blue too): the plot area only.
  for (let y = 60; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      const i = (y * img.width + x) * 4;
      const [r, g, b] = [data[i] as number, data[i + 1] as number, data[i + 2] as number];
      if (!(b > 180 && r < 120 && g < 160)) continue;
      left = Math.min(left, x);
      right = Math.max(right, x);
      if (y < peakY) [peak, peakY] = [x, y];
    }
  }
  return { left, peak, right };
}

describe('the /fund nav chart', () => {
  const t0 = Date.UTC(2026, 10, 28, 18, 0);

  it('spaces strikes by time: a minute between the first two is a sliver of the day to the third', async () => {
    const png = renderNavChart({
      title: 'NAV',
      timezone: 'UTC',
      points: [
        { at: t0, price: 1 },
        { at: t0 + 60_000, price: 2 },
        { at: t0 + 60_000 + 86_400_000, price: 1 },
      ],
    });
    const { left, peak, right } = await blueExtent(png);
    // Evenly spaced, the peak would sit halfway (0.5); by time it is 1/1441 of the way, within a few pixels.
    expect((peak - left) / (right - left)).toBeLessThan(0.02);
  });

  it('draws a single strike without failing', () => {
    const png = renderNavChart({ title: 'NAV', timezone: 'UTC', points: [{ at: t0, price: 1 }] });
    expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  });

  it("labels its ticks with dates in the server's zone, on round local times", () => {
    const ticks = timeTicks(t0, t0 + 6 * 86_400_000, 'Australia/Sydney');
    // 18:00 UTC is 05:00 the next morning in Sydney (UTC+11); a day apart, the ticks fall on Sydney's midnights.
    expect(ticks.map((t) => t.label)).toEqual(['30 Nov', '1 Dec', '2 Dec', '3 Dec', '4 Dec', '5 Dec']);
    expect(ticks[0]?.value).toBe(Date.UTC(2026, 10, 29, 13, 0));
  });
});
