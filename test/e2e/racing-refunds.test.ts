import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SettlementWatcher } from '../../src/bot/betting/settlement.js';
import { updateSettings } from '../../src/bot/settings/guild-settings.js';
import { GatewayClient, type RacePromo } from '../../src/gateway/index.js';
import { finishingOrder, localDay, type Race, raceStartMs, TRACKS } from '../../src/sandbox/world/racing.js';
import type { RunningBot } from '../support/bot-entry.js';
import { messageMatching, newTrail, press } from '../support/flows.js';
import { cashOf } from '../support/fund-flows.js';
import { API_KEY, type Desk, startDesk } from '../support/harness.js';
import { textOf } from '../support/messages.js';
import { until } from '../support/wait.js';

/** The alpha syndicate's bookie_a session (the sandbox's fixture account). */
const BOOKIE_A_SESSION = '5e55a1fa-0000-4000-8000-00000000000a';

type RefundBot = RunningBot & { settlement: Pick<SettlementWatcher, 'tickFresh'> };

/**
 * Refund bet types on a racing slip (issue 46): /bet-racing's `refund` is offered only where the book's promo for
 * the race is that type, sent as the bet's bet_type, and a runner that runs second is settled as a refund (the
 * stake back, P&L 0), never as a loss, as the sandbox's own history says.
 */
describe('refund and boost bets on racing slips', () => {
  let desk: Desk<RefundBot>;
  let gw: GatewayClient;
  /** A race whose bookie_a promo is "money back if 2nd or 3rd", and one with no promo at bookie_a. */
  let promoRace: Race;
  let plainRace: Race;

  beforeAll(async () => {
    desk = await startDesk<RefundBot>({ webhooks: true });
    await updateSettings(desk.bot.store, desk.ld.guildId, (s) => ({
      ...s,
      resultsChannelId: desk.ld.channelIds.results,
    }));
    gw = new GatewayClient({ baseUrl: desk.sandbox.url, apiKey: API_KEY, poller: { now: desk.now } });
    const handle = await gw.promos.list({ session_id: BOOKIE_A_SESSION });
    const out = await handle.wait({ signal: AbortSignal.timeout(20_000) });
    if (out.status !== 'completed') throw new Error(`promos: ${out.status}`);
    const world = desk.sandbox.sb.world;
    const raceOf = (p: RacePromo) =>
      world.race(p.track, p.race_num, p.race_type ?? 'R', String(p.event_url).split('/')[4] ?? '');
    const soon = desk.now() + 30 * 60_000;
    const offered = out.result.promos.filter((p) => {
      const r = raceOf(p);
      return p.promo_type === '2/3' && r !== undefined && r.startMs > soon && r.runners.length >= 4;
    });
    promoRace = raceOf(offered[0] as RacePromo) as Race;
    const withPromo = new Set(out.result.promos.map((p) => raceOf(p)?.key));
    const plain = out.result.promos
      .map((p) => raceOf(p))
      .flatMap((r) => (r ? [1, 2, 3, 4, 5, 6, 7, 8].map((n) => world.race(r.track, n, r.race_type, r.date)) : []))
      .find((r) => r !== undefined && !withPromo.has(r.key) && r.startMs > soon);
    plainRace = plain as Race;
  }, 60_000);
  afterAll(async () => {
    await gw?.close();
    await desk?.close();
  });

  async function betRacing(
    on: Race,
    runner: string,
    stake: number,
    ask: Record<string, string | boolean> = { refund: '2/3' },
  ) {
    const handle = await desk.ld.sendCommand({
      user: desk.ld.users.bettor,
      channelId: desk.ld.channelIds.bets,
      name: 'bet-racing',
      options: {
        track: `${on.track} (${on.race_type})`,
        race: on.race_num,
        date: on.date,
        runner,
        market: 'win',
        stake,
        bookie: 'bookie_a',
        ...ask,
      },
    });
    return until(
      'the slip or the refusal',
      () =>
        handle.responses().find((m) => m.visibleTo === null) ??
        handle.responses().find((m) => textOf(m) !== '' && !/posted below/.test(textOf(m))),
      { timeoutMs: 20_000 },
    );
  }

  it('settles a 2/3 bet whose runner runs second as a refund: the stake back, P&L 0, not a loss', async () => {
    const order = finishingOrder(desk.sandbox.sb.world.seed, promoRace);
    const second = promoRace.runners.find((r) => r.number === order[1])?.name as string;
    const slip = await betRacing(promoRace, second, 3);
    expect(textOf(slip)).toContain('Win (money back if 2nd or 3rd)');
    await press(desk, newTrail(), desk.ld.users.bettor, slip, /^Confirm$/);
    await messageMatching(desk, slip, /Bet placed ✅/, 20_000);
    const [bet] = (await desk.control.state()).bets.filter((b) => JSON.stringify(b.bet).includes(second));
    expect(bet?.bet).toMatchObject({ stake: 3, bet_type: '2/3' });

    await desk.control.settle(promoRace.key);
    await desk.bot.settlement.tickFresh();
    const notice = await until(
      'the settlement notice',
      () => desk.ld.messages(desk.ld.channelIds.results).find((m) => textOf(m).includes(second)),
      { timeoutMs: 15_000 },
    );
    const settled = (await desk.control.state()).bets.find((b) => b.bet.bet_id === bet?.bet.bet_id);
    expect([settled?.status, settled?.pnl]).toEqual(['void', 0]);
    const [record] = await desk.bot.store.query<{ state: string; settled_status: string; pnl_cents: number }>(
      'SELECT state, settled_status, pnl_cents FROM bet_records WHERE bet_id = ?',
      bet?.bet.bet_id,
    );
    expect(record).toEqual({ state: 'settled', settled_status: 'void', pnl_cents: 0 });
    expect(textOf(notice)).toMatch(/Returned\s*\$3\.00/);
    expect(notice.embeds[0]?.title).toBe(`Refunded (money back) · ${second}`);
  });

  it('offers the refund only where the race has it at the book, and says so before any slip', async () => {
    const before = (await desk.control.state()).bets.length;
    const reply = await betRacing(plainRace, plainRace.runners[0]?.name as string, 2);
    expect(reply.visibleTo).not.toBeNull();
    expect(textOf(reply)).toContain(
      `bookie_a offers no "money back if 2nd or 3rd" on ${plainRace.track} R${plainRace.race_num} on ${plainRace.date}.`,
    );
    expect((await desk.control.state()).bets).toHaveLength(before);
  });

  it('asks a strict boost only where the book holds a boost token for the race, and the book boosts it', async () => {
    const world = desk.sandbox.sb.world;
    const soon = desk.now() + 30 * 60_000;
    const open = TRACKS.filter((t) => t.race_type === 'R').flatMap((def) =>
      [0, 1].flatMap((d) => {
        const date = localDay(def, desk.now() + d * 86_400_000);
        return [1, 2, 3, 4, 5, 6, 7, 8].flatMap((n) => {
          const r = raceStartMs(def, n, date) > soon ? world.race(def.track, n, 'R', date) : undefined;
          return r ? [r] : [];
        });
      }),
    );
    const token = async (r: Race) =>
      (await gw.promos.boostToken({ session_id: BOOKIE_A_SESSION, track: r.track, race_num: r.race_num }))
        .boost_token_available;
    let withBoost: Race | undefined;
    let without: Race | undefined;
    for (const r of open) {
      if (withBoost && without) break;
      if (await token(r)) withBoost ??= r;
      else without ??= r;
    }
    const boosted = withBoost as Race;
    const runner = boosted.runners[1]?.name as string;
    const slip = await betRacing(boosted, runner, 2, { boost: 'strict' });
    expect(textOf(slip)).toContain('Win (boosted, or not placed)');
    await press(desk, newTrail(), desk.ld.users.bettor, slip, /^Confirm$/);
    await messageMatching(desk, slip, /Bet placed ✅/, 20_000);
    const [record] = await desk.bot.store.query<{ correlation_id: string }>(
      "SELECT correlation_id FROM bet_records WHERE state = 'placed' AND payload LIKE ?",
      `%boosted, or not placed%`,
    );
    const [entry] = await gw.jobs.status([record?.correlation_id as string]);
    expect(entry?.result).toMatchObject({ success: true, boosted: true, runner });

    const before = (await desk.control.state()).bets.length;
    const refused = await betRacing(without as Race, (without as Race).runners[0]?.name as string, 2, {
      boost: 'strict',
    });
    expect(refused.visibleTo).not.toBeNull();
    expect(textOf(refused)).toContain(`bookie_a has no boost for ${without?.track} R${without?.race_num}`);
    expect((await desk.control.state()).bets).toHaveLength(before);
  });

  it('keeps a bonus-bet stake off the syndicate’s cash: placed and lost, the account’s cash is as it was', async () => {
    await desk.advance(31_000);
    const cashBefore = await cashOf(gw, BOOKIE_A_SESSION);
    const order = finishingOrder(desk.sandbox.sb.world.seed, plainRace);
    const last = plainRace.runners.find((r) => r.number === order[order.length - 1])?.name as string;
    const slip = await betRacing(plainRace, last, 5, { use_bonus_bet: true });
    expect(textOf(slip)).toContain('(bonus bet)');
    await press(desk, newTrail(), desk.ld.users.bettor, slip, /^Confirm$/);
    await messageMatching(desk, slip, /Bet placed ✅/, 20_000);
    await desk.control.settle(plainRace.key);
    await desk.bot.settlement.tickFresh();
    const [record] = await until(
      'the bonus bet settled',
      async () => {
        const rows = await desk.bot.store.query<{
          state: string;
          settled_status: string;
          pnl_cents: number;
          bet_id: string;
        }>("SELECT state, settled_status, pnl_cents, bet_id FROM bet_records WHERE payload LIKE '%(bonus bet)%'");
        return rows[0]?.state === 'settled' ? rows : undefined;
      },
      { timeoutMs: 15_000 },
    );
    const bet = (await desk.control.state()).bets.find((b) => b.bet.bet_id === record?.bet_id);
    expect(bet?.bet).toMatchObject({ stake: 5, is_bonus_bet: true });
    expect([bet?.status, bet?.pnl]).toEqual(['lost', 0]);
    expect([record?.settled_status, record?.pnl_cents]).toEqual(['lost', 0]);
    await desk.advance(31_000);
    expect(await cashOf(gw, BOOKIE_A_SESSION)).toBe(cashBefore);
  });
});
