import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Desk, startDesk } from '../support/bot-desk.js';
import { pickEvent } from '../support/flows.js';
import type { Desk as E2eDesk } from '../support/harness.js';
import { textOf } from '../support/messages.js';
import { until } from '../support/wait.js';

let desk: Desk;
beforeAll(async () => {
  // The wait is a setting (default 20 s): 3 s here, so the test does not sit out the default.
  desk = await startDesk({ env: { PRICE_CHECK_WAIT_SECONDS: '3' } });
}, 60_000);
afterAll(() => desk?.close());

describe('a price check that never answers during /bet', () => {
  it('tells the member which book did not answer within the wait (PRICE_CHECK_WAIT_SECONDS) and what to do, logged as a warning without a stack', async () => {
    const sel = await pickEvent(desk as unknown as E2eDesk, 'nba');
    // Every job the sandbox starts from now on never completes: the slip's price check stalls.
    const res = await fetch(`${desk.sandbox.url}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ stuckJobs: 1 }),
    });
    expect(res.status).toBe(200);
    const ix = await desk.ld.sendCommand({
      user: desk.ld.users.bettor,
      channelId: desk.ld.channelIds.bets,
      name: 'bet',
      options: { event: sel.epk, bookie: sel.bookie, market: sel.market, selection: sel.marketRef, stake: 3 },
    });
    const reply = await until(
      'the answer after the stalled price check',
      () => ix.responses().find((m) => /did not answer/.test(textOf(m))),
      { timeoutMs: 40_000 },
    );
    expect(textOf(reply)).toContain(
      `The price check at ${sel.bookie} did not answer within 3 s; nothing was placed. Try again, or pick another book.`,
    );
    const lines = desk.logs.map((l) => JSON.parse(l) as { level: string; msg: string; err?: unknown });
    const stalled = lines.filter((l) => l.msg === 'price check did not answer in time');
    expect(stalled.map((l) => l.level)).toEqual(['warn']);
    expect(stalled[0]?.err).toBeUndefined();
    expect(lines.filter((l) => l.msg === 'interaction failed')).toEqual([]);
  }, 60_000);
});
