import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bettable } from '../../src/bot/model/markets.js';
import { bettableBookieACard, control, controls, type Desk, startDesk } from '../support/bot-desk.js';
import { until } from '../support/wait.js';

let desk: Desk;
let pick: { epk: string; market: string; ref: string };

beforeAll(async () => {
  desk = await startDesk();
  const found = await bettableBookieACard(desk);
  const market = found?.card.markets.find((m) => bettable(m).length > 0);
  const sel = market ? bettable(market)[0] : undefined;
  if (found && market && sel) pick = { epk: found.event.event_id, market: market.market, ref: sel.market_ref };
  expect(pick, 'a bettable bookie_a selection').toBeDefined();
});
afterAll(async () => {
  await desk?.close();
});

describe('an expired slip', () => {
  it('closes the public slip (no buttons) when Confirm finds it expired, and tells the clicker privately', async () => {
    const { ld } = desk;
    const user = ld.users.bettor;
    const channelId = ld.channelIds.bets;
    const ix = await ld.sendCommand({
      user,
      channelId,
      name: 'bet',
      options: { event: pick.epk, bookie: 'bookie_a', market: pick.market, selection: pick.ref, stake: 2 },
    });
    await ix.acknowledged;
    const slip = await until(
      'the public slip',
      () => ld.messages(channelId).find((m) => m.visibleTo === null && control(m, 'v1:slip:confirm:')),
      { timeoutMs: 15_000 },
    );
    const confirmId = control(slip, 'v1:slip:confirm:')?.custom_id ?? '';
    const slipId = confirmId.split(':')[3] ?? '';
    // Time passes beyond the slip's expiry.
    await desk.bot.store.query('UPDATE slips SET expires_at = ? WHERE slip_id = ?', desk.now() - 1_000, slipId);

    await ld.clickButton({ user, message: slip, customId: confirmId });
    const closed = await until(
      'the public slip closed as expired',
      () => {
        const m = ld.message(slip.id);
        return m?.embeds[0]?.title === 'Bet slip closed' ? m : undefined;
      },
      { timeoutMs: 15_000 },
    );
    expect(closed.embeds[0]?.description).toMatch(/^Expired: .*nothing was placed/);
    expect(controls(closed)).toHaveLength(0);
    await until(
      'the private refusal',
      () =>
        ld
          .messages(channelId, { viewer: user.id })
          .find(
            (m) =>
              m.visibleTo === user.id &&
              /expired before it was confirmed/.test(m.embeds[0]?.description ?? m.content ?? ''),
          ),
      { timeoutMs: 15_000 },
    );
    const state = (await (await fetch(`${desk.sandbox.url}/_sandbox/state`)).json()) as { bets: unknown[] };
    expect(state.bets).toHaveLength(0);
  });

  it('closes itself when nobody clicks it: buttons removed and marked expired, nothing placed', async () => {
    const { ld } = desk;
    const user = ld.users.bettor;
    const channelId = ld.channelIds.bets;
    const ix = await ld.sendCommand({
      user,
      channelId,
      name: 'bet',
      options: { event: pick.epk, bookie: 'bookie_a', market: pick.market, selection: pick.ref, stake: 3 },
    });
    await ix.acknowledged;
    const slip = await until(
      'the public slip',
      () =>
        ld
          .messages(channelId)
          .find(
            (m) => m.visibleTo === null && control(m, 'v1:slip:confirm:') && /\$3\.00/.test(JSON.stringify(m.embeds)),
          ),
      { timeoutMs: 15_000 },
    );
    const slipId = (control(slip, 'v1:slip:confirm:')?.custom_id ?? '').split(':')[3] ?? '';
    await desk.bot.store.query('UPDATE slips SET expires_at = ? WHERE slip_id = ?', desk.now() - 1_000, slipId);
    await desk.bot.closeExpiredSlips();
    const closed = await until(
      'the expired slip closed by the bot',
      () => {
        const m = ld.message(slip.id);
        return m?.embeds[0]?.title === 'Bet slip expired' ? m : undefined;
      },
      { timeoutMs: 15_000 },
    );
    expect(controls(closed)).toHaveLength(0);
    expect(closed.embeds[0]?.description).toMatch(/nothing was placed/);
    // Once closed it is not edited again on the next pass.
    const editsBefore = ld.message(slip.id)?.edited_timestamp;
    await desk.bot.closeExpiredSlips();
    await new Promise((r) => setTimeout(r, 300));
    expect(ld.message(slip.id)?.edited_timestamp).toBe(editsBefore);
  });
});
