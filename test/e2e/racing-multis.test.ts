import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEND_GRACE_MS } from '../../src/bot/betting/reconciler.js';
import type { SettlementWatcher } from '../../src/bot/betting/settlement.js';
import type { Logger } from '../../src/bot/config/logger.js';
import type { GatewayPort } from '../../src/bot/gateway-port.js';
import { Ledger } from '../../src/bot/ledger/ledger-repo.js';
import { updateSettings } from '../../src/bot/settings/guild-settings.js';
import { GatewayClient } from '../../src/gateway/index.js';
import type { LocalMessage } from '../../src/local-discord/index.js';
import { finishingOrder, localDay, type Race, raceStartMs, TRACKS } from '../../src/sandbox/world/racing.js';
import type { RunningBot } from '../support/bot-entry.js';
import { messageMatching, newTrail, press } from '../support/flows.js';
import { deskCommand, fundFlows } from '../support/fund-flows.js';
import { API_KEY, type Desk, startDesk } from '../support/harness.js';
import { textOf } from '../support/messages.js';
import { reconcilerOf } from '../support/reconcile-now.js';
import { until } from '../support/wait.js';

/**
 * Same-race multis through the local Discord (issue 46): /multi builds a slip from the race card's runners, Confirm
 * places it once through place_bet with is_same_event_multi and its legs, the desk keeps one bet record, the book's
 * settlement is posted once (won and lost), and the tiers and caps that hold a single hold a multi.
 */
/** The alpha syndicate's bookie_a session (the sandbox's fixture account). */
const BOOKIE_A_SESSION = '5e55a1fa-0000-4000-8000-00000000000a';

/** The in-process bot, with its settlement watcher to tick. */
type MultiBot = RunningBot & {
  settlement: Pick<SettlementWatcher, 'tickFresh'>;
  context: { gateway: GatewayPort; logger: Logger };
};

describe('same-race multis at the desk', () => {
  let desk: Desk<MultiBot>;
  let race: Race;
  /** The race's runners by where they finish (the sandbox's seeded result). */
  let order: string[];
  let value: string;
  /** Another open race, for the tiers and caps (the first is settled by then). */
  let other: Race;

  beforeAll(async () => {
    desk = await startDesk<MultiBot>({ webhooks: true, proxy: true });
    await updateSettings(desk.bot.store, desk.ld.guildId, (s) => ({
      ...s,
      resultsChannelId: desk.ld.channelIds.results,
    }));
    const world = desk.sandbox.sb.world;
    const now = desk.now();
    const open: Race[] = [];
    for (const def of TRACKS.filter((t) => t.race_type === 'R')) {
      for (const dayOffset of [0, 1]) {
        const date = localDay(def, now + dayOffset * 86_400_000);
        for (let n = 1; n <= 8; n++) {
          const r = raceStartMs(def, n, date) > now + 30 * 60_000 ? world.race(def.track, n, 'R', date) : undefined;
          if (r && r.runners.length >= 6) open.push(r);
        }
      }
    }
    open.sort((a, b) => a.startMs - b.startMs);
    race = open[0] as Race;
    // The fund's test takes the seventh runner of it.
    other = open.find((r) => r.key !== race.key && r.runners.length >= 7) as Race;
    value = `${race.track} (R)`;
    order = finishingOrder(world.seed, race).map((n) => race.runners.find((r) => r.number === n)?.name ?? '?');
  }, 60_000);
  afterAll(() => desk?.close());

  const sandboxMultis = async () =>
    (await desk.control.state()).bets.filter(
      (b) => b.bet.bet_type === 'srm' && JSON.stringify(b.bet).includes(race.track),
    );

  async function legChoices(typed: string): Promise<Array<{ name: string; value: string }>> {
    const ask = async () => {
      const choices = (await desk.ld.autocomplete({
        user: desk.ld.users.bettor,
        channelId: desk.ld.channelIds.bets,
        name: 'multi',
        options: { track: value, race: race.race_num, date: race.date, leg1: typed },
        focused: 'leg1',
      })) as Array<{ name: string; value: string }>;
      return choices.some((c) => c.value.includes('|')) ? choices : undefined;
    };
    return until('the leg choices', ask, { timeoutMs: 20_000, everyMs: 250 });
  }

  const runnersOf = (r: Race) => r.runners.map((x) => x.name);

  /** /multi as the bettor on `on`. */
  const multi = (legs: string[], stake: number, on: Race = race): Promise<LocalMessage> =>
    bettorCommand('multi', on, { stake, ...Object.fromEntries(legs.map((l, k) => [`leg${k + 1}`, l])) });

  const admin = (options: Record<string, string | number>, subcommand: string) =>
    deskCommand(desk, desk.ld.users.admin, 'settings', subcommand, options, /Saved/);

  /** A racing command as the bettor; the first public message the bot posts for it, or its private refusal. */
  async function bettorCommand(name: string, on: Race, options: Record<string, string | number>) {
    const handle = await desk.ld.sendCommand({
      user: desk.ld.users.bettor,
      channelId: desk.ld.channelIds.bets,
      name,
      options: { track: `${on.track} (R)`, race: on.race_num, date: on.date, bookie: 'bookie_a', ...options },
    });
    return until(
      'the public slip, or the refusal',
      () =>
        handle.responses().find((m) => m.visibleTo === null) ??
        handle.responses().find((m) => textOf(m) !== '' && !/posted below/.test(textOf(m))),
      { timeoutMs: 20_000 },
    );
  }

  const records = () =>
    desk.bot.store.query<{ placement_id: string; state: string; stake_cents: number; bet_id: string | null }>(
      "SELECT placement_id, state, stake_cents, bet_id FROM bet_records WHERE market_key = 'srm' ORDER BY created_at",
    );

  it('offers each runner of the card at win, top 2, top 3 and top 4 as a leg', async () => {
    const choices = await legChoices(order[0]?.slice(0, 4) ?? '');
    expect(choices.filter((c) => c.value.startsWith(`${order[0]}|`)).map((c) => c.name)).toEqual([
      `${order[0]} · win`,
      `${order[0]} · top 2`,
      `${order[0]} · top 3`,
      `${order[0]} · top 4`,
    ]);
    const narrowed = await legChoices(`${order[1]} top 3`);
    expect(narrowed[0]).toEqual({ name: `${order[1]} · top 3`, value: `${order[1]}|top3` });
  });

  it('prices a multi slip from the race its leg options read, with no price check of its own', async () => {
    await legChoices(order[1]?.slice(0, 4) ?? '');
    const checks = () => desk.proxy?.answered('/v3/price_check', 202);
    const before = checks();
    const slip = await multi([`${order[1]}|top2`, `${order[2]}|top4`], 2);
    expect(textOf(slip)).toMatch(/Fair \d+\.\d\d \(chance/);
    expect(checks()).toBe(before);
    await press(desk, newTrail(), desk.ld.users.bettor, slip, /^Cancel$/);
  });

  it('places a 2-leg multi once after Confirm, through place_bet with its legs, and a 3-leg multi the same way', async () => {
    const [first, second, third] = order as [string, string, string];
    const last = order[order.length - 1] as string;
    const slip = await multi([`${first}|win`, `${second}|top3`], 4);
    const shown = textOf(slip);
    expect(shown).toMatch(/Bet slip/);
    expect(shown).toContain(`1. ${first} — win (win `);
    expect(shown).toContain(`2. ${second} — top 3 (win `);
    expect(shown).toMatch(
      /Fair \d+\.\d\d \(chance \d+\.\d %; Harville over no-vig multiplicative win chances, 3 books\)/,
    );
    expect(shown).toMatch(/set by the book when it takes the multi/);
    expect(await sandboxMultis()).toHaveLength(0);
    await press(desk, newTrail(), desk.ld.users.bettor, slip, /^Confirm$/);
    const placed = await messageMatching(desk, slip, /Bet placed ✅/, 20_000);
    expect(textOf(placed)).toContain(`${first} win + ${second} top 3`);
    expect(textOf(placed)).toMatch(/At the book's price \d+\.\d\d: edge [+-]\d+\.\d% · book margin -?\d+\.\d %/);

    const three = await multi([`${last}|win`, `${first}|top2`, `${third}|top4`], 3);
    await press(desk, newTrail(), desk.ld.users.bettor, three, /^Confirm$/);
    await messageMatching(desk, three, /Bet placed ✅/, 20_000);

    const bets = await sandboxMultis();
    expect(
      bets.map((b) => [
        b.bet.stake,
        (b.bet.selections as Array<{ selection: string; market: string }>).map((s) => [s.selection, s.market]),
      ]),
    ).toEqual([
      [
        4,
        [
          [first, 'win'],
          [second, 'top3'],
        ],
      ],
      [
        3,
        [
          [last, 'win'],
          [first, 'top2'],
          [third, 'top4'],
        ],
      ],
    ]);
    const stored = await records();
    expect(stored.map((r) => [r.state, r.stake_cents, r.bet_id])).toEqual([
      ['placed', 400, bets[0]?.bet.bet_id],
      ['placed', 300, bets[1]?.bet.bet_id],
    ]);
  });

  it('finds a multi whose answer was lost in the book’s history by its legs, and adopts it once', async () => {
    const [, three] = await records();
    // As if the 202 never arrived: the record is unknown and knows no bet id.
    await desk.bot.store.query(
      "UPDATE bet_records SET state = 'unknown', bet_id = NULL WHERE placement_id = ?",
      three?.placement_id,
    );
    const { reconciler, repo } = reconcilerOf(desk.bot);
    expect((await reconciler.run()).adopted).toBe(1);
    const after = await repo.get(three?.placement_id as string);
    expect([after?.state, after?.betId]).toEqual(['placed', three?.bet_id]);
    expect((await reconciler.run()).adopted).toBe(0);
  });

  it('leaves a multi still sending within its send’s deadline to its sender, unread, and adopts it once past it', async () => {
    const [two] = await records();
    // As if its place_bet were still in flight: sending since now, no bet id yet.
    const since = desk.now();
    await desk.bot.store.query(
      "UPDATE bet_records SET state = 'sending', bet_id = NULL, updated_at = ? WHERE placement_id = ?",
      since,
      two?.placement_id,
    );
    let reads = 0;
    const gw = desk.bot.context.gateway;
    const counting = {
      ...gw,
      transactions: {
        list: (...args: Parameters<typeof gw.transactions.list>) => {
          reads += 1;
          return gw.transactions.list(...args);
        },
      },
    } as GatewayPort;
    let at = since + SEND_GRACE_MS - 1;
    const { reconciler, repo } = reconcilerOf(desk.bot, { at: () => at, gateway: counting });
    expect([await reconciler.run(), reads]).toEqual([{ adopted: 0, notPlaced: 0, waiting: 1 }, 0]);
    at = since + SEND_GRACE_MS;
    expect((await reconciler.run()).adopted).toBe(1);
    const after = await repo.get(two?.placement_id as string);
    expect([after?.state, after?.betId]).toEqual(['placed', two?.bet_id]);
  });

  it('settles both from the book once: the 2-leg multi won, the 3-leg multi lost', async () => {
    await desk.control.settle(race.key);
    const notices = () =>
      desk.ld.messages(desk.ld.channelIds.results).filter((m) => /^(Won|Lost)/.test(m.embeds[0]?.title ?? ''));
    await desk.bot.settlement.tickFresh();
    await until('the two settlement notices', () => (notices().length === 2 ? true : undefined), { timeoutMs: 15_000 });
    expect(await desk.bot.settlement.tickFresh()).toBe(0);
    const byBet = new Map((await sandboxMultis()).map((b) => [b.bet.bet_id, b.status]));
    const stored = await records();
    expect(stored.map((r) => [r.state, byBet.get(r.bet_id ?? '')])).toEqual([
      ['settled', 'won'],
      ['settled', 'lost'],
    ]);
    expect(
      notices()
        .map((m) => m.embeds[0]?.title?.split(' ')[0])
        .sort(),
    ).toEqual(['Lost', 'Won']);
    // The ledger holds each multi's hold, placement and settlement, and /ledger export carries them.
    const entries = await new Ledger(desk.bot.store).range(desk.ld.guildId, 0, desk.now() + 86_400_000);
    for (const r of stored) {
      expect(entries.filter((e) => e.ref === r.placement_id).map((e) => e.kind)).toEqual(
        expect.arrayContaining(['hold', 'placement', 'settlement']),
      );
    }
    const exported = await deskCommand(desk, desk.ld.users.admin, 'ledger', 'export', {}, /ledger entr/);
    expect(exported).toMatch(new RegExp(`^${entries.length} ledger entries from`));
  });

  it('puts a multi above the tier to the approvers, binding its legs, and places it once at the last approval', async () => {
    desk.ld.setMemberRoles(desk.ld.users.viewer.id, [desk.ld.roleIds.bettor]);
    await admin({ t1: 5, t2: 100, approver_role: desk.ld.roleIds.bettor }, 'approvals');
    const [a, b] = runnersOf(other) as [string, string];
    const proposal = await multi([`${a}|top2`, `${b}|top4`], 7, other);
    const text = textOf(proposal);
    expect(text).toMatch(/Bet proposal: 1 more approval needed/);
    expect(text).toContain(`multi ${a} top 2 + ${b} top 4`);
    expect(text).not.toMatch(/^Confirm$/m);
    const before = (await records()).length;
    const approved = await press(desk, newTrail(), desk.ld.users.admin, proposal, /^Approve$/);
    await approved.acknowledged;
    await messageMatching(desk, proposal, /Bet placed ✅/, 20_000);
    const stored = await records();
    expect(stored).toHaveLength(before + 1);
    expect(stored[stored.length - 1]?.stake_cents).toBe(700);
    const onOther = (await desk.control.state()).bets.filter(
      (x) => x.bet.bet_type === 'srm' && JSON.stringify(x.bet).includes(`${other.track} R${other.race_num}`),
    );
    expect(onOther.map((x) => x.bet.stake)).toEqual([7]);
  });

  it('counts a multi against its race’s cap together with the race’s singles, and refuses one that would pass it', async () => {
    await admin({ t1: 100, t2: 200 }, 'approvals');
    await admin({ per_event: 10 }, 'limits');
    const [, , c, d, e] = runnersOf(other) as [string, string, string, string, string];
    // $7.00 of the earlier multi rides on the race already: a $2.00 single leaves $1.00 of room.
    const singleSlip = await bettorCommand('bet-racing', other, { runner: c, market: 'win', stake: 2 });
    await press(desk, newTrail(), desk.ld.users.bettor, singleSlip, /^Confirm$/);
    await messageMatching(desk, singleSlip, /Bet placed ✅/, 20_000);
    const before = (await records()).length;
    const slip = await multi([`${d}|top3`, `${e}|top3`], 2, other);
    await press(desk, newTrail(), desk.ld.users.bettor, slip, /^Confirm$/);
    const refused = await messageMatching(desk, slip, /Not placed/, 20_000);
    expect(textOf(refused)).toContain(
      `the syndicate's cap of $10.00 on ${other.track} R${other.race_num} ($9.00 already rides on it). Room left: $1.00.`,
    );
    expect(await records()).toHaveLength(before);
    const onOther = (await desk.control.state()).bets.filter(
      (x) => x.bet.bet_type === 'srm' && JSON.stringify(x.bet).includes(`${other.track} R${other.race_num}`),
    );
    expect(onOther).toHaveLength(1);
  });

  it('refuses a fund multi that would pass the fund’s daily loss limit, after one that fits', async () => {
    const gw = new GatewayClient({ baseUrl: desk.sandbox.url, apiKey: API_KEY, poller: { now: desk.now } });
    try {
      await admin({ t1: 100, t2: 200 }, 'approvals');
      await admin({ per_event: 1000 }, 'limits');
      // bookie_a joins the fund with $150.00 of its cash the fund's; a $10.00 daily loss limit.
      expect(await fundFlows(desk, gw, BOOKIE_A_SESSION).openWithNav(15_000)).toMatch(/Struck/);
      await deskCommand(desk, desk.ld.users.admin, 'fund', 'limits', { daily_loss: '10' }, /Saved/);
      const [, , , , , f, g] = runnersOf(other) as string[];
      const fits = await multi([`${f}|top4`, `${g}|top4`], 4, other);
      await press(desk, newTrail(), desk.ld.users.bettor, fits, /^Confirm$/);
      await messageMatching(desk, fits, /Bet placed ✅/, 20_000);
      const before = (await sandboxMultis()).length;
      const [a, , c] = runnersOf(other) as string[];
      const over = await multi([`${a}|top3`, `${c}|top4`], 7, other);
      const pressed = await press(desk, newTrail(), desk.ld.users.bettor, over, /^Confirm$/);
      // The fund's gate refuses before the claim: the member is told, the slip stays as it was.
      const refused = await until(
        'the refusal',
        () =>
          pressed.responses().find((r) => /Not placed/.test(textOf(r))) ??
          (/Not placed/.test(textOf(desk.ld.message(over.id) ?? over)) ? desk.ld.message(over.id) : undefined),
        { timeoutMs: 20_000, seen: () => pressed.responses().map(textOf).join(' | ') },
      );
      expect(textOf(refused)).toContain('would take the fund past its daily loss limit of $10.00');
      expect(await sandboxMultis()).toHaveLength(before);
    } finally {
      await gw.close();
    }
  });

  it('refuses legs that cannot all come true, before any slip', async () => {
    const reply = await multi([`${order[2]}|win`, `${order[3]}|win`], 2);
    expect(textOf(reply)).toMatch(/cannot all come true in one race/);
    expect(reply.visibleTo).not.toBeNull();
  });
});
