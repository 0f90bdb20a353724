import { describe, expect, it } from 'vitest';
import { figure, notMeasured, statusOf } from '../../../bench/lib/figure.js';
import { requestsPerTick } from '../../../bench/lib/poll-count.js';
import { formatTable } from '../../../bench/lib/table.js';

describe('bench figures', () => {
  it('judges a ratio target on value / baseline', () => {
    const f = figure({
      name: 'x',
      value: 1.2,
      unit: 'ms',
      baseline: 1,
      target: { on: 'ratio', op: '<=', limit: 1.15 },
      note: '',
    });
    expect(f.ratio).toBe(1.2);
    expect(f.met).toBe(false);
    expect(statusOf(f)).toBe('MISSED');
    expect(f.target).toBe('ratio <= 1.15');
  });

  it('judges a ratio target on a ratio measured directly when one is given', () => {
    const f = figure({
      name: 'x',
      value: 1.2,
      unit: 'ms',
      baseline: 1,
      ratio: 1.04,
      target: { on: 'ratio', op: '<=', limit: 1.05 },
      note: '',
    });
    expect(f.ratio).toBe(1.04);
    expect(f.met).toBe(true);
  });

  it('judges a value target on the value itself, with its unit in the target text', () => {
    const f = figure({
      name: 'p99',
      value: 120,
      unit: 'ms',
      baseline: 3000,
      target: { on: 'value', op: '<', limit: 300 },
      note: '',
    });
    expect(f.met).toBe(true);
    expect(f.target).toBe('value < 300 ms');
    expect(statusOf(f)).toBe('met');
  });

  it('a ratio target with no baseline is not met', () => {
    const f = figure({
      name: 'x',
      value: 1,
      unit: '',
      baseline: 0,
      target: { on: 'ratio', op: '>=', limit: 0.5 },
      note: '',
    });
    expect(f.ratio).toBeNull();
    expect(f.met).toBe(false);
  });

  it('a figure that could not run is reported as not measured, with the reason, and never as met', () => {
    const f = notMeasured('5 ack', 'ms', { on: 'value', op: '<', limit: 300 }, 'the bot is missing');
    expect(f.met).toBe(false);
    expect(f.value).toBeNull();
    expect(f.note).toBe('not measured: the bot is missing');
    expect(statusOf(f)).toBe('not measured');
  });

  it('prints MISSED and not measured in the table, and each note under it', () => {
    const missed = figure({
      name: 'a',
      value: 2,
      unit: 'ms',
      baseline: 1,
      target: { on: 'ratio', op: '<=', limit: 1 },
      note: 'n1',
    });
    const absent = notMeasured('b', 'ms', { on: 'value', op: '<', limit: 1 }, 'why');
    const text = formatTable([missed, absent]);
    expect(text).toMatch(/\| a .*\| MISSED/);
    expect(text).toMatch(/\| b .*\| not measured/);
    expect(text).toContain('- b: not measured: why');
  });
});

describe('poll request counting', () => {
  it('counts ticks as the most polls of any id and requests per tick over that', () => {
    expect(requestsPerTick([['a', 'b'], ['a', 'b'], ['a']])).toEqual({ ticks: 3, perTick: 1 });
    const naive = [['a'], ['b'], ['c']];
    expect(requestsPerTick(naive)).toEqual({ ticks: 1, perTick: 3 });
    expect(requestsPerTick([])).toEqual({ ticks: 0, perTick: 0 });
  });
});
