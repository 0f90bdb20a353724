import { describe, expect, it } from 'vitest';
import { until } from '../../support/wait.js';

describe('until', () => {
  it('returns the first truthy value the check gives', async () => {
    let calls = 0;
    const value = await until('the third call', () => (++calls >= 3 ? { calls } : undefined), { everyMs: 1 });
    expect(value).toEqual({ calls: 3 });
  });

  it('never runs a slow async check again while it is still pending', async () => {
    let running = 0;
    let most = 0;
    let calls = 0;
    await until(
      'five slow checks',
      async () => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((r) => setTimeout(r, 20));
        running -= 1;
        return ++calls >= 5;
      },
      { everyMs: 1 },
    );
    expect(most).toBe(1);
  });

  it('fails naming what it waited for, what the caller last saw and the last error a check threw', async () => {
    let calls = 0;
    const waiting = until(
      'the slip to settle',
      () => {
        calls += 1;
        if (calls > 1) throw new Error(`no slip ${calls}`);
        return false;
      },
      { timeoutMs: 50, everyMs: 5, seen: () => 'it reads: "Bet placed"' },
    );
    await expect(waiting).rejects.toThrow(
      /^timed out after 50 ms waiting for the slip to settle; it reads: "Bet placed"; the last check threw: no slip \d+$/,
    );
  });
});
