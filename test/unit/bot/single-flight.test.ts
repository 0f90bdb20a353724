import { describe, expect, it } from 'vitest';
import { SingleFlight, singlePass } from '../../../src/bot/ops/single-flight.js';

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('single flight', () => {
  it('runs one load for concurrent callers of the same key and gives all of them its result', async () => {
    const flights = new SingleFlight();
    const gate = deferred<string>();
    let loads = 0;
    const load = () => {
      loads++;
      return gate.promise;
    };
    const all = Promise.all(Array.from({ length: 50 }, () => flights.run('k', load)));
    gate.resolve('card');
    expect(await all).toEqual(Array.from({ length: 50 }, () => 'card'));
    expect(loads).toBe(1);
  });

  it('runs separate loads for different keys', async () => {
    const flights = new SingleFlight();
    const seen: string[] = [];
    const out = await Promise.all(
      ['a', 'b'].map((k) =>
        flights.run(k, async () => {
          seen.push(k);
          return k;
        }),
      ),
    );
    expect(out).toEqual(['a', 'b']);
    expect(seen).toEqual(['a', 'b']);
  });

  it('starts a fresh load after a failed one instead of keeping the failure', async () => {
    const flights = new SingleFlight();
    await expect(flights.run('k', () => Promise.reject(new Error('gateway down')))).rejects.toThrow('gateway down');
    expect(flights.size).toBe(0);
    expect(await flights.run('k', async () => 'ok')).toBe('ok');
  });
});

describe('single pass', () => {
  it('gives calls made while a pass runs that same pass', async () => {
    const gate = deferred<number>();
    let passes = 0;
    const p = singlePass(() => {
      passes++;
      return gate.promise;
    });
    const all = Promise.all([p.run(), p.run(), p.run()]);
    gate.resolve(7);
    expect({ results: await all, passes }).toEqual({ results: [7, 7, 7], passes: 1 });
  });

  it('starts a new pass for a call made after the last one ended', async () => {
    let passes = 0;
    const p = singlePass(async () => ++passes);
    await p.run();
    expect(await p.run()).toBe(2);
  });

  it('settles when the pass in progress ends, even when it fails', async () => {
    const gate = deferred<number>();
    const p = singlePass(() => gate.promise);
    const failed = p.run().catch(() => 'failed');
    let settled = false;
    const waiting = p.settled().then(() => {
      settled = true;
    });
    await Promise.resolve();
    expect(settled).toBe(false);
    gate.reject(new Error('gateway down'));
    await waiting;
    expect({ settled, run: await failed }).toEqual({ settled: true, run: 'failed' });
  });

  it('gives a fresh call a pass that begins after the one running when it was made', async () => {
    const gates = [deferred<number>(), deferred<number>()];
    let passes = 0;
    const p = singlePass(() => gates[passes++]!.promise);
    const running = p.run();
    const fresh = p.runFresh();
    await Promise.resolve();
    expect(passes).toBe(1);
    gates[0]!.resolve(1);
    gates[1]!.resolve(2);
    expect({ running: await running, fresh: await fresh, passes }).toEqual({ running: 1, fresh: 2, passes: 2 });
  });

  it('runs one pass for a fresh call made while none runs', async () => {
    let passes = 0;
    const p = singlePass(async () => ++passes);
    expect({ fresh: await p.runFresh(), passes }).toEqual({ fresh: 1, passes: 1 });
  });

  it('starts the fresh pass even when the pass it waited out failed', async () => {
    let passes = 0;
    const p = singlePass(async () => {
      if (++passes === 1) throw new Error('gateway down');
      return passes;
    });
    const failed = p.run().catch(() => 'failed');
    expect({ fresh: await p.runFresh(), failed: await failed }).toEqual({ fresh: 2, failed: 'failed' });
  });
});
