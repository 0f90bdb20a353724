import { describe, expect, it } from 'vitest';
import { Counter, deskMetrics, Histogram, Registry } from '../../../src/bot/ops/metrics.js';
import { parseExposition, total } from '../../support/prom-text.js';

describe('the metrics registry', () => {
  it('writes counters and fixed-bucket histograms that the strict reader accepts, escaping label values', async () => {
    const r = new Registry();
    const c = r.register(new Counter('t_things_total', 'Things\nseen.', ['name']));
    const h = r.register(new Histogram('t_wait_seconds', 'Waits.', [0.1, 1]));
    c.inc({ name: 'a "quoted" \\ name\nwith a newline' }, 2);
    h.observe(0.05);
    h.observe(0.5);
    h.observe(3);
    const e = parseExposition(await r.text());
    expect(total(e, 't_things_total', { name: 'a "quoted" \\ name\nwith a newline' })).toBe(2);
    expect(total(e, 't_wait_seconds_bucket', { le: '0.1' })).toBe(1);
    expect(total(e, 't_wait_seconds_bucket', { le: '1' })).toBe(2);
    expect(total(e, 't_wait_seconds_bucket', { le: '+Inf' })).toBe(3);
    expect(total(e, 't_wait_seconds_sum')).toBeCloseTo(3.55);
  });

  it('refuses a label a metric does not declare (a member id cannot slip in as a new label)', () => {
    const c = new Counter('t_total', 'T.', ['command']);
    expect(() => c.inc({ user: '123' })).toThrow(/no label user/);
  });
});

const tick = () => new Promise((r) => setTimeout(r, 30));

/**
 * Holds the event loop for `ms` between two turns of it: a delay monitor's first timer only starts its clock, and it
 * records the held time on the timer after.
 */
async function blockLoop(ms: number): Promise<void> {
  await tick();
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy: nothing else may run
  }
  await tick();
}

const delaySamples = (text: string) =>
  parseExposition(text).samples.filter((s) => s.name === 'nodejs_eventloop_delay_seconds');

describe("the desk's event-loop delay gauge", () => {
  it('reads a held event loop when the loop is watched (METRICS on)', async () => {
    const m = deskMetrics();
    try {
      await blockLoop(80);
      const max = delaySamples(await m.registry.text()).find((s) => s.labels.quantile === '1');
      expect(max?.value).toBeGreaterThan(0.04);
    } finally {
      m.stop();
    }
  });

  it('leaves the loop unwatched when asked (METRICS off): no delay is read, however long the loop is held', async () => {
    const m = deskMetrics(undefined, { watchLoop: false });
    try {
      await blockLoop(80);
      expect(delaySamples(await m.registry.text())).toEqual([]);
    } finally {
      m.stop();
    }
  });
});

describe('the strict exposition reader', () => {
  it.each([
    ['a sample with no TYPE', 'x 1\n'],
    ['no final newline', '# TYPE x counter\nx 1'],
    ['an unquoted label value', '# TYPE x counter\nx{a=b} 1\n'],
    ['a bad escape', '# TYPE x counter\nx{a="\\t"} 1\n'],
    ['a series twice', '# TYPE x counter\nx 1\nx 2\n'],
    [
      'a histogram whose +Inf bucket is not its count',
      '# TYPE h histogram\nh_bucket{le="+Inf"} 2\nh_sum 1\nh_count 3\n',
    ],
    ['a negative counter', '# TYPE x counter\nx -1\n'],
  ])('rejects %s', (_what, text) => {
    expect(() => parseExposition(text)).toThrow();
  });
});
