import { expect, it } from 'vitest';
import { chainStaged } from '../../src/bot/ledger/index.js';
import { openStore } from '../../src/bot/store/index.js';
import type { LocalMessage } from '../../src/local-discord/index.js';
import { type BotChild, respawnBot, spawnReadyBot } from '../support/bot-child.js';
import { messageMatching, newTrail, pickEvent, press } from '../support/flows.js';
import { startDesk } from '../support/harness.js';
import { textOf } from '../support/messages.js';
import { until } from '../support/wait.js';

/**
 * kill -9 of the bot between the last approval (proposal `placing`) and the bet's claim: the Confirm's price check
 * is held at the proxy when the process dies. After a restart the proposal leaves `placing` by itself, released
 * exactly once (nothing was sent), and stays so.
 */
it('releases a proposal a kill -9 left placing, exactly once, and places nothing', async () => {
  const desk = await startDesk({ webhooks: false, proxy: true, inProcessBot: false, env: { JOB_LEASE_SECONDS: '2' } });
  let child: BotChild | undefined;
  const store = await openStore(desk.env.STORE_URL as string);
  try {
    child = await spawnReadyBot(desk);
    const tiers = await desk.ld.sendCommand({
      user: desk.ld.users.admin,
      channelId: desk.ld.channelIds.bets,
      name: 'settings',
      subcommand: 'approvals',
      options: { t1: 5, t2: 100 },
    });
    await until('the tiers saved', () => tiers.responses().find((m) => /Saved/.test(m.content ?? '')), {
      timeoutMs: 20_000,
    });
    const sel = await pickEvent(desk, 'nba', 2);
    const bet = await desk.ld.sendCommand({
      user: desk.ld.users.bettor,
      channelId: desk.ld.channelIds.bets,
      name: 'bet',
      options: { event: sel.epk, bookie: sel.bookie, market: sel.market, selection: sel.marketRef, stake: 21 },
    });
    const proposal: LocalMessage = await until(
      'the proposal',
      () => bet.responses().find((m) => m.visibleTo === null && /Bet proposal/.test(textOf(m))),
      { timeoutMs: 20_000 },
    );
    // The approval's own price check passes; the Confirm's (after `placing`) is held at the proxy.
    desk.proxy!.hold('/v3/price_check', { after: 1 });
    await press(desk, newTrail(), desk.ld.users.admin, proposal, /^Approve$/);
    await until('the placement’s price check at the proxy', () => desk.proxy!.heldFor('/v3/price_check') > 0, {
      timeoutMs: 20_000,
    });
    const state = async () => (await store.query<{ state: string }>('SELECT state FROM proposals'))[0]?.state;
    expect(await state()).toBe('placing');
    await child.kill9();
    desk.proxy!.drop();
    child = await respawnBot(desk, child);

    const closed = await messageMatching(desk, proposal, /Bet not placed/, 30_000);
    expect(textOf(closed)).toMatch(/interrupted before the bet was sent\. Nothing was placed and the hold is released/);
    expect(await state()).toBe('closed');
    // Beats later nothing has changed: one release, no bet at the gateway or in the desk's records.
    await new Promise((r) => setTimeout(r, 3_000));
    await chainStaged(store); // as every read of the ledger does (decision 2131)
    const releases = await store.query<{ n: number }>("SELECT COUNT(*) AS n FROM ledger WHERE kind = 'release'");
    expect(Number(releases[0]?.n)).toBe(1);
    const records = await store.query<{ n: number }>('SELECT COUNT(*) AS n FROM bet_records');
    expect(Number(records[0]?.n)).toBe(0);
    const bets = (await desk.control.state()).bets.filter((b) => JSON.stringify(b.bet).includes(sel.epk));
    expect(bets).toHaveLength(0);
    expect(await state()).toBe('closed');
  } finally {
    await child?.stop();
    await store.close();
    await desk.close();
  }
}, 120_000);
