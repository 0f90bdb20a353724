import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { parseArgs } from '../../../src/sandbox/core/cli-args.js';
import { ALPHA, ALPHA_A, get, post, type Sandbox, start, untilAnswer } from './platform-helpers.js';

let receiver: Server | undefined;
let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.close();
  if (receiver) {
    receiver.closeAllConnections();
    await new Promise<void>((r) => receiver!.close(() => r()));
  }
  receiver = undefined;
  sb = undefined;
});

/** A webhook receiver that reads the request and never answers. */
async function silentReceiver(): Promise<{ url: string; hits: () => number }> {
  let hits = 0;
  receiver = createServer((req) => {
    req.resume();
    hits += 1;
  });
  await new Promise<void>((r) => receiver!.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, hits: () => hits };
}

describe('command line', () => {
  it('parses port, speed, seed and flags', () => {
    expect(parseArgs(['--port', '9000', '--speed=5', '--seed', '3', '--control', '--faults'])).toMatchObject({
      port: 9000,
      speed: 5,
      seed: 3,
      control: true,
      faults: true,
    });
    expect(parseArgs([])).toMatchObject({ port: 8787, speed: 1, seed: 1, control: false, faults: false });
  });

  it('refuses bad values and unknown options with a message naming them', () => {
    expect(() => parseArgs(['--port', 'x'])).toThrow(/--port/);
    expect(() => parseArgs(['--speed', '0'])).toThrow(/--speed needs a positive number/);
    expect(() => parseArgs(['--colour'])).toThrow(/unknown option '--colour'/);
  });

  it('names the option whose value is missing', () => {
    expect(() => parseArgs(['--seed'])).toThrow(/--seed needs a whole number, got ''/);
  });

  it('refuses a bare word, since every option starts with --', () => {
    expect(() => parseArgs(['9000'])).toThrow(/unexpected argument '9000'/);
  });
});

describe('lifecycle', () => {
  it('aborts a webhook receiver that does not answer within 10 s (scaled) and retries it', async () => {
    const hook = await silentReceiver();
    sb = await start({ speed: 100 });
    const res = await post(sb.url, '/v3/promos', ALPHA, { session_id: ALPHA_A, callback_url: hook.url });
    expect(res.status).toBe(202);
    await untilAnswer(
      'two webhook hits',
      async () => hook.hits(),
      (n) => n >= 2,
      8_000,
    );
    const state = await get(sb.url, '/_sandbox/state');
    const attempts = state.body.webhookDeliveries[0].attempts;
    expect(attempts[0].ok).toBe(false);
    expect(attempts[0].error).toMatch(/no answer within 10 s/);
  });

  it('closes cleanly: no timers left, the port refuses connections, close is idempotent', async () => {
    const hook = await silentReceiver();
    const running = await start({ speed: 1 });
    await post(running.url, '/v3/promos', ALPHA, { session_id: ALPHA_A, callback_url: hook.url });
    await post(running.url, '/api/start_session', ALPHA, { session_id: ALPHA_A });
    expect(running.sb.clock.pendingTimers).toBeGreaterThan(0);
    await running.close();
    await running.close();
    expect(running.sb.clock.pendingTimers).toBe(0);
    await expect(fetch(`${running.url}/api/session_ids`, { method: 'POST' })).rejects.toThrow();
  });

  it('keeps API keys out of util.inspect and JSON of the sandbox state', async () => {
    sb = await start();
    const account = sb.sb.accounts.byApiKey(ALPHA)!;
    expect(account.key).toBe(ALPHA);
    expect(inspect(account, { depth: 5 })).not.toContain(ALPHA);
    expect(JSON.stringify(sb.sb.accounts.all())).not.toContain('sandbox-key-');
    expect(inspect(sb.sb.jobs, { depth: 3 })).not.toContain('sandbox-key-');
  });
});
