import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BettableSelection,
  betSlip,
  current,
  messageMatching,
  newTrail,
  pickEvent,
  press,
} from '../support/flows.js';
import { type Desk, startDesk } from '../support/harness.js';
import { ACK_DEADLINE_MS, responseMatching, textOf } from '../support/messages.js';
import { until } from '../support/wait.js';

/** No WEBHOOK_PUBLIC_URL: every result comes by the batched poller. A proxy lets the test hold the polls. */
describe('betting end to end, poll-only path', () => {
  let desk: Desk;
  let sel: BettableSelection;

  beforeAll(async () => {
    desk = await startDesk({ webhooks: false, proxy: true });
    sel = await pickEvent(desk, 'nba', 2);
  }, 60_000);
  afterAll(() => desk?.close());

  it('sends no callback_url and still edits the result in from polling', async () => {
    const trail = newTrail();
    const { slip } = await betSlip(desk, trail, { user: desk.ld.users.bettor, sel, stake: 4 });
    await press(desk, trail, desk.ld.users.bettor, slip, /^Confirm$/);
    const done = await messageMatching(desk, slip, /Bet placed ✅|Bet not placed/, 20_000);
    expect(textOf(done)).toMatch(/Bet placed ✅/);
    const state = await desk.control.state();
    expect(state.webhookDeliveries).toEqual([]);
    expect(trail.acks.every((ms) => ms < ACK_DEADLINE_MS)).toBe(true);
  }, 60_000);

  it('a restart between the 202 and the result still posts the result, exactly once', async () => {
    const trail = newTrail();
    const { bettor } = desk.ld.users;
    const { slip } = await betSlip(desk, trail, { user: bettor, sel, stake: 6 });
    // Hold every poll at the proxy: the result cannot reach this bot before it goes down.
    desk.proxy!.hold('/api/bet_status');
    await press(desk, trail, bettor, slip, /^Confirm$/);
    await messageMatching(desk, slip, /Bet submitted/);
    const edits: string[] = [];
    const onEdit = (e: { message: { id: string } }) => {
      if (e.message.id === slip.id) edits.push(textOf(desk.ld.message(slip.id)));
    };
    desk.ld.events.on('messageUpdate', onEdit);
    try {
      await desk.stopBot();
      expect(textOf(desk.ld.message(slip.id))).toMatch(/Bet submitted/);
      desk.proxy!.release();
      await desk.startBotAgain();
      const done = await messageMatching(desk, slip, /Bet placed ✅|Bet not placed/, 20_000);
      expect(textOf(done)).toMatch(/Bet placed ✅/);
      await new Promise((r) => setTimeout(r, 2000)); // a poll interval later: no second edit
      expect(edits.filter((t) => /Bet placed|Bet not placed/.test(t))).toHaveLength(1);
    } finally {
      desk.ld.events.off('messageUpdate', onEdit);
      desk.proxy!.release();
    }
    const bets = (await desk.control.state()).bets.filter((b) => b.bet.stake === 6);
    expect(bets).toHaveLength(1);
    expect(trail.acks.every((ms) => ms < ACK_DEADLINE_MS)).toBe(true);
  }, 90_000);
});

describe('a slip left to expire, then the gateway down', () => {
  let desk: Desk;
  let sel: BettableSelection;

  beforeAll(async () => {
    // The shortest expiry the bot accepts, so the test waits seconds, not minutes.
    desk = await startDesk({ webhooks: false, env: { SLIP_EXPIRY_SECONDS: '10' } });
    sel = await pickEvent(desk, 'nba', 0);
  }, 60_000);
  afterAll(() => desk?.close());

  it('refuses Confirm on an expired slip, says to run /bet again, and places nothing', async () => {
    const trail = newTrail();
    const { bettor } = desk.ld.users;
    const { slip } = await betSlip(desk, trail, { user: bettor, sel, stake: 3 });
    // The slip states its expiry as a Discord timestamp; press Confirm just after it.
    const expires = Number(/<t:(\d+):R>/.exec(slip.content ?? '')?.[1]);
    expect(expires).toBeGreaterThan(desk.now() / 1000);
    await until('the slip to expire', () => desk.now() > (expires + 1) * 1000 + 200, {
      timeoutMs: 20_000,
      everyMs: 100,
    });
    const late = await press(desk, trail, bettor, current(desk, slip), /^Confirm$/);
    const reply = await responseMatching(late, /expired/);
    expect(textOf(reply)).toMatch(/expired before it was confirmed\. Nothing was placed; run \/bet again/);
    expect(reply.flags! & 64).toBe(64);
    expect(textOf(current(desk, slip))).not.toMatch(/Bet submitted|Bet placed/);
    expect((await desk.control.state()).bets).toEqual([]);
    expect(trail.acks.every((ms) => ms < ACK_DEADLINE_MS)).toBe(true);
  }, 40_000);

  it('answers /bet within 3 s with a message that says the gateway cannot be reached', async () => {
    await desk.sandbox.close();
    const handle = await desk.ld.sendCommand({
      user: desk.ld.users.bettor,
      channelId: desk.ld.channelIds.bets,
      name: 'bet',
      options: { event: sel.epk, bookie: sel.bookie, market: sel.market, selection: sel.marketRef, stake: 5 },
    });
    const { ms } = await handle.acknowledged;
    expect(ms).toBeLessThan(ACK_DEADLINE_MS);
    const text = await until(
      'a reply',
      () => {
        const t = handle
          .responses()
          .map((m) => textOf(m))
          .join('\n');
        return /gateway|try again/i.test(t) ? t : undefined;
      },
      { timeoutMs: 30_000 },
    );
    expect(text).toMatch(/could not be reached|having trouble/);
    expect(text).toMatch(/Try again/);
  }, 60_000);
});
