import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxClock } from '../../../src/bot/config/sandbox-clock.js';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/index.js';

const DAY_MS = 86_400_000;
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true, control: true, seed: 1 });
});
afterAll(async () => {
  await sandbox?.close();
});

describe("the offline bot's clock follows the sandbox clock", () => {
  it('reads the sandbox clock through its control route, and again after it was moved on', async () => {
    const clock = new SandboxClock(sandbox.url);
    await clock.start(() => {});
    try {
      expect(Math.abs(clock.now() - sandbox.sb.clock.now().getTime())).toBeLessThan(2_000);
      await fetch(`${sandbox.url}/_sandbox/clock/advance`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ms: 2 * DAY_MS }),
      });
      await clock.refresh();
      expect(clock.now() - Date.now()).toBeGreaterThan(2 * DAY_MS - 2_000);
      expect(Math.abs(clock.now() - sandbox.sb.clock.now().getTime())).toBeLessThan(2_000);
    } finally {
      clock.stop();
    }
  });

  it('runs on from a reading at the reading speed', () => {
    let real = 1_000_000;
    const clock = new SandboxClock('http://127.0.0.1:9', () => real);
    clock.take({ now: '2026-12-01T00:00:00.000Z', speed: 60 });
    real += 1_000;
    expect(new Date(clock.now()).toISOString()).toBe('2026-12-01T00:01:00.000Z');
    clock.take({ now: 'not a time' });
    expect(new Date(clock.now()).toISOString()).toBe('2026-12-01T00:01:00.000Z');
  });
});
