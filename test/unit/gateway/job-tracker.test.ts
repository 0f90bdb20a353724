import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  BetResult,
  ClientClosedError,
  GatewayError,
  JobTracker,
  type PollEntry,
  ResponseShapeError,
} from '../../../src/gateway/index.js';

afterEach(() => {
  vi.useRealTimers();
});

const env = (id: string, timeoutAt = '2999-01-01T00:00:00Z') => ({
  status: 'pending',
  correlation_id: id,
  timeout_at: timeoutAt,
});

describe('job tracker', () => {
  it('holds no timer until a job is waited on, and clears it once the job resolves', async () => {
    vi.useFakeTimers();
    const fetch = vi.fn(
      async (ids: string[]): Promise<PollEntry[]> =>
        ids.map((id) => ({ correlation_id: id, status: 'completed', result: { success: true } })),
    );
    const tracker = new JobTracker(fetch, { intervalMs: 1_000 });
    const handle = tracker.handle(env('a'), BetResult);
    expect(tracker.hasTimer).toBe(false);
    const waiting = handle.wait();
    expect(tracker.hasTimer).toBe(true);
    await vi.advanceTimersByTimeAsync(1_000);
    expect((await waiting).status).toBe('completed');
    expect(tracker.hasTimer).toBe(false);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('shares one poll for the same id tracked twice, and wait() twice returns the same outcome', async () => {
    vi.useFakeTimers();
    const fetch = vi.fn(
      async (ids: string[]): Promise<PollEntry[]> =>
        ids.map((id) => ({ correlation_id: id, status: 'completed', result: { success: false } })),
    );
    const tracker = new JobTracker(fetch, { intervalMs: 1_500 });
    const h = tracker.handle(env('a'));
    const [x, y, z] = [h.wait(), h.wait(), tracker.track(env('a'))];
    await vi.advanceTimersByTimeAsync(1_500);
    expect(await x).toBe(await y);
    expect((await z).status).toBe('completed');
    expect(fetch).toHaveBeenCalledWith(['a']);
  });

  it('keeps a webhook outcome that arrives before anyone waits', async () => {
    const fetch = vi.fn(async (): Promise<PollEntry[]> => []);
    const tracker = new JobTracker(fetch, { intervalMs: 1_000 });
    expect(tracker.resolveFromWebhook({ correlation_id: 'early', result: { success: true, bet_id: 'B' } })).toBe(false);
    const outcome = await tracker.track(env('early'), BetResult);
    expect(outcome.status === 'completed' && outcome.result.bet_id).toBe('B');
    expect(fetch).not.toHaveBeenCalled();
    expect(tracker.hasTimer).toBe(false);
  });

  it('keeps polling through failed poll requests and reports them to onError', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const errors: unknown[] = [];
    const tracker = new JobTracker(
      async (ids) => {
        calls++;
        if (calls === 1) throw new Error('boom');
        return ids.map((id) => ({ correlation_id: id, status: 'completed', result: {} }));
      },
      { intervalMs: 1_000, onError: (e) => errors.push(e) },
    );
    const p = tracker.track(env('a'));
    await vi.advanceTimersByTimeAsync(2_000);
    expect((await p).status).toBe('completed');
    expect(errors).toHaveLength(1);
  });

  it('rejects waiters with a clear error on close and on untrack', async () => {
    const tracker = new JobTracker(async () => [], { intervalMs: 1_000 });
    const a = tracker.track(env('a'));
    const b = tracker.track(env('b'));
    expect(tracker.untrack('a')).toBe(true);
    await expect(a).rejects.toThrow(/Stopped tracking job a/);
    tracker.close();
    await expect(b).rejects.toBeInstanceOf(ClientClosedError);
    await expect(b).rejects.toThrow(/client.jobs.track\(envelope\) on a new client/);
    expect(tracker.hasTimer).toBe(false);
    await expect(tracker.track(env('c'))).rejects.toBeInstanceOf(GatewayError);
  });

  it('rejects with ResponseShapeError when a completed result breaks its schema', async () => {
    vi.useFakeTimers();
    const tracker = new JobTracker(
      async (ids) => ids.map((id) => ({ correlation_id: id, status: 'completed', result: { success: 'yes' } })),
      {
        intervalMs: 1_000,
      },
    );
    const p = tracker.track(env('a'), BetResult);
    const check = expect(p).rejects.toBeInstanceOf(ResponseShapeError);
    await vi.advanceTimersByTimeAsync(1_000);
    await check;
  });

  it('refuses a non-positive interval with a message naming the option', () => {
    expect(() => new JobTracker(async () => [], { intervalMs: 0 })).toThrow(
      /poller.intervalMs must be a positive number/,
    );
  });
});

describe('job tracker timing', () => {
  it('reports a timeout at timeout_at without an extra poll, and keeps the regular cadence for the others', async () => {
    vi.useFakeTimers({ now: 0 });
    const polls: { at: number; ids: string[] }[] = [];
    const tracker = new JobTracker(
      async (ids) => {
        polls.push({ at: Date.now(), ids });
        return ids.map((id) => ({ correlation_id: id, status: 'pending' }));
      },
      { intervalMs: 1_500 },
    );
    let timedOutAt: number | undefined;
    void tracker.track(env('short', new Date(2_000).toISOString())).then(() => {
      timedOutAt = Date.now();
    });
    void tracker.track(env('long')).catch(() => {});
    await vi.advanceTimersByTimeAsync(4_600);
    expect(timedOutAt).toBe(2_000);
    expect(polls).toEqual([
      { at: 1_500, ids: ['short', 'long'] },
      { at: 3_000, ids: ['long'] },
      { at: 4_500, ids: ['long'] },
    ]);
    tracker.close();
  });
});
