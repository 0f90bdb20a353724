import { loadImage } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { renderStatsChart } from '../../../../src/bot/analytics/chart.js';
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
