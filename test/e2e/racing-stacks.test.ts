import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SettlementWatcher } from '../../src/bot/betting/settlement.js';
import { Ledger } from '../../src/bot/ledger/ledger-repo.js';
import { updateSettings } from '../../src/bot/settings/guild-settings.js';
import { GatewayClient } from '../../src/gateway/index.js';
import type { LocalMessage } from '../../src/local-discord/index.js';
import type { Race } from '../../src/sandbox/world/racing.js';
import type { RunningBot } from '../support/bot-entry.js';
import { messageMatching, newTrail, press } from '../support/flows.js';
import { cashOf, deskCommand } from '../support/fund-flows.js';
import { API_KEY, type Desk, startDesk } from '../support/harness.js';
import { textOf } from '../support/messages.js';
import { addMulti, multiSlip, openRaces, raceCommand, sandboxMultis } from '../support/stack-flows.js';
import { until } from '../support/wait.js';

/**
 * Stacks through the local Discord (issue 46, decision 2010): a /multi slip at bookie_a grows by "Add another multi
 * on this race" into a stack slip; Confirm places every multi in one stacked_srm call; each multi the book takes is
 * its own bet record, settled and posted on its own; a multi the book refuses is shown refused; a stack the book
 * refuses before placement places nothing and names the multi; the race's cap counts the whole stack.
 */
const BOOKIE_A_SESSION = '5e55a1fa-0000-4000-8000-00000000000a';

type StackBot = RunningBot & { settlement: Pick<SettlementWatcher, 'tickFresh'> };

describe('stacks of same-race multis at the desk', () => {
  let desk: Desk<StackBot>;
  let races: Race[];

  beforeAll(async () => {
    desk = await startDesk<StackBot>({ webhooks: true });
    await updateSettings(desk.bot.store, desk.ld.guildId, (s) => ({
      ...s,
      resultsChannelId: desk.ld.channelIds.results,
    }));
    races = openRaces(desk, 4);
    expect(races).toHaveLength(4);
  }, 60_000);
  afterAll(() => desk?.close());

  const runners = (r: Race) => r.runners.map((x) => x.name);
  const label = (r: Race) => `${r.track} R${r.race_num}`;

  const atBook = (r: Race) => sandboxMultis(desk, r);

  const records = () =>
    desk.bot.store.query<{
      placement_id: string;
      slip_id: string;
      state: string;
      stake_cents: number;
      bet_id: string | null;
      correlation_id: string | null;
      note: string | null;
    }>(
      "SELECT placement_id, slip_id, state, stake_cents, bet_id, correlation_id, note FROM bet_records WHERE market_key = 'srm' ORDER BY created_at, slip_id",
    );

  const multi = (on: Race, legs: string[], stake: number, bookie?: string) => multiSlip(desk, on, legs, stake, bookie);
  const add = (slip: LocalMessage, legs: string, stake: string, minOdds?: string, bonus?: string) =>
    addMulti(desk, slip, { legs, stake, ...(minOdds ? { minOdds } : {}), ...(bonus ? { bonus } : {}) });

  it('grows a multi slip into a stack of three, placed in one stacked_srm call: two placed, one refused by the book', async () => {
    const race = races[0] as Race;
    const [a, b, c, d, e, f] = runners(race) as [string, string, string, string, string, string];
    // The book takes at most $5.00 a multi through this session on stacked_srm: the $6.00 multi is refused there.
    await desk.control.faults({
      betting: [{ fault: 'max_stake', route: '/v3/stacked_srm', session_id: BOOKIE_A_SESSION, max_stake: 5 }],
    });
    const first = await multi(race, [`${a}|top3`, `${b}|top4`], 2);
    expect(textOf(first)).toMatch(/Bet slip/);
    const two = await add(first, `${c} top 3\n${d} top 4`, '3');
    await messageMatching(desk, first, /Moved into a stack/);
    const three = await add(two, `${e} top 4, ${f} top 4`, '6');
    const shown = textOf(three);
    expect(shown).toMatch(/Multi 1 · \$2\.00 · floor none/);
    expect(shown).toMatch(/Multi 2 · \$3\.00 · floor none/);
    expect(shown).toMatch(/Multi 3 · \$6\.00 · floor none/);
    expect(shown).toContain(`${e} — top 4`);
    expect(shown).toMatch(/Total stake\s*\$11\.00/);
    expect(await atBook(race)).toHaveLength(0);

    await press(desk, newTrail(), desk.ld.users.bettor, three, /^Confirm$/);
    const done = await messageMatching(desk, three, /Stack placed ✅ 2 of 3 multis/, 20_000);
    expect(textOf(done)).toMatch(/Multi 3 · \$6\.00 · refused ❌/);
    expect(textOf(done)).toMatch(/max_stake_exceeded/);

    const placed = await atBook(race);
    expect(
      placed.map((x) => [
        x.bet.stake,
        (x.bet.selections as Array<{ selection: string; market: string }>).map((s) => [s.selection, s.market]),
      ]),
    ).toEqual([
      [
        2,
        [
          [a, 'top3'],
          [b, 'top4'],
        ],
      ],
      [
        3,
        [
          [c, 'top3'],
          [d, 'top4'],
        ],
      ],
    ]);
    const stored = await records();
    expect(stored.map((r) => [r.state, r.stake_cents, r.bet_id])).toEqual([
      ['placed', 200, placed[0]?.bet.bet_id],
      ['placed', 300, placed[1]?.bet.bet_id],
      ['refused', 600, null],
    ]);
    // One call: the three records name one job, the one stack job the desk stored.
    expect(new Set(stored.map((r) => r.correlation_id)).size).toBe(1);
    const jobs = await desk.bot.store.query<{ kind: string }>(
      'SELECT kind FROM jobs WHERE correlation_id = ?',
      stored[0]?.correlation_id,
    );
    expect(jobs.map((j) => j.kind)).toEqual(['stack']);
    await desk.control.faults({});
  });

  it('settles each placed multi of the stack on its own, once, with its own ledger entries', async () => {
    const race = races[0] as Race;
    await desk.control.settle(race.key);
    const notices = () =>
      desk.ld.messages(desk.ld.channelIds.results).filter((m) => /^(Won|Lost)/.test(m.embeds[0]?.title ?? ''));
    await desk.bot.settlement.tickFresh();
    await until('the two settlement notices', () => (notices().length === 2 ? true : undefined), { timeoutMs: 15_000 });
    expect(await desk.bot.settlement.tickFresh()).toBe(0);
    const byBet = new Map((await atBook(race)).map((x) => [x.bet.bet_id, x.status]));
    const stored = await records();
    expect(stored.map((r) => [r.state, r.bet_id ? byBet.get(r.bet_id) !== undefined : null])).toEqual([
      ['settled', true],
      ['settled', true],
      ['refused', null],
    ]);
    const entries = await new Ledger(desk.bot.store).range(desk.ld.guildId, 0, desk.now() + 86_400_000);
    const kinds = (id: string | undefined) => entries.filter((x) => x.ref === id).map((x) => x.kind);
    expect(kinds(stored[0]?.placement_id)).toEqual(['hold', 'submitted', 'placement', 'settlement']);
    expect(kinds(stored[1]?.placement_id)).toEqual(['hold', 'submitted', 'placement', 'settlement']);
    expect(kinds(stored[2]?.placement_id)).toEqual(['hold', 'submitted', 'release']);
  });

  it('places nothing of a stack the book refuses before placement, and names the multi and why', async () => {
    const race = races[1] as Race;
    // Multi 2 on the race's two favourites, so the book prices it far under its floor of 900 whatever the race
    // (two longshots' top 2 once priced 2235.87 at 01:00 UTC and the stack was placed).
    const byChance = [...race.runners].sort((x, y) => y.chance - x.chance).map((x) => x.name);
    const [c, d, a, b] = byChance as [string, string, string, string];
    const before = (await records()).length;
    const first = await multi(race, [`${a}|top4`, `${b}|top4`], 2);
    const stack = await add(first, `${c} top 2\n${d} top 2`, '2', '900');
    expect(textOf(stack)).toMatch(/Multi 2 · \$2\.00 · floor 900\.00/);
    await press(desk, newTrail(), desk.ld.users.bettor, stack, /^Confirm$/);
    const refused = await messageMatching(desk, stack, /Stack not placed/, 20_000);
    expect(textOf(refused)).toMatch(
      /refused the whole stack before placing any multi \(odds_below_target: multi 2 is priced/,
    );
    expect(textOf(refused)).toMatch(/below its target_odds 900\.00/);
    expect(await atBook(race)).toHaveLength(0);
    const stored = (await records()).slice(before);
    expect(stored.map((r) => [r.state, r.stake_cents])).toEqual([
      ['refused', 200],
      ['refused', 200],
    ]);
    // Both holds released: nothing of the stack counts against the day.
    const entries = await new Ledger(desk.bot.store).range(desk.ld.guildId, 0, desk.now() + 86_400_000);
    for (const r of stored) {
      expect(entries.filter((x) => x.ref === r.placement_id).map((x) => x.kind)).toEqual([
        'hold',
        'submitted',
        'release',
      ]);
    }
  });

  it('counts the whole stack against the race’s cap once, and refuses a stack that passes it with nothing held', async () => {
    const race = races[2] as Race;
    const [a, b, c, d] = runners(race) as [string, string, string, string];
    await deskCommand(desk, desk.ld.users.admin, 'settings', 'limits', { per_event: 10 }, /Saved/);
    try {
      const before = (await records()).length;
      const first = await multi(race, [`${a}|top4`, `${b}|top4`], 6);
      const stack = await add(first, `${c} top 4\n${d} top 4`, '6');
      await press(desk, newTrail(), desk.ld.users.bettor, stack, /^Confirm$/);
      const refused = await messageMatching(desk, stack, /Not placed/, 20_000);
      expect(textOf(refused)).toContain(`the syndicate's cap of $10.00 on ${label(race)} ($0.00 already rides on it)`);
      expect(await records()).toHaveLength(before);
      expect(await atBook(race)).toHaveLength(0);
    } finally {
      await deskCommand(desk, desk.ld.users.admin, 'settings', 'limits', { per_event: 1000 }, /Saved/);
    }
  });

  it('refuses a multi whose leg would take a runner past the per-runner cap, counting the race’s single on it', async () => {
    const race = races[1] as Race;
    const [, , , , a, b] = runners(race) as string[];
    await deskCommand(desk, desk.ld.users.admin, 'settings', 'limits', { per_runner: 5 }, /Saved/);
    try {
      const slip = await raceCommand(desk, 'bet-racing', race, { runner: a as string, market: 'win', stake: 3 });
      await press(desk, newTrail(), desk.ld.users.bettor, slip, /^Confirm$/);
      await messageMatching(desk, slip, /Bet placed ✅/, 20_000);
      const over = await multi(race, [`${b}|top4`, `${a}|top4`], 3);
      await press(desk, newTrail(), desk.ld.users.bettor, over, /^Confirm$/);
      const refused = await messageMatching(desk, over, /Not placed/, 20_000);
      expect(textOf(refused)).toContain(
        `the syndicate's cap of $5.00 on ${a} in ${label(race)}, counting its singles and every multi with a leg on it ($3.00 already rides on it). Room left: $2.00.`,
      );
      expect(await atBook(race)).toHaveLength(0);
    } finally {
      await deskCommand(desk, desk.ld.users.admin, 'settings', 'limits', { per_runner: 0 }, /Saved/);
    }
  });

  it('puts a stack above the tier to the approvers, binding its multis, and places it in one call at the last approval', async () => {
    const race = races[2] as Race;
    const [, , , , e, f] = runners(race) as string[];
    const [a, b] = runners(race) as [string, string];
    desk.ld.setMemberRoles(desk.ld.users.viewer.id, [desk.ld.roleIds.bettor]);
    await deskCommand(
      desk,
      desk.ld.users.admin,
      'settings',
      'approvals',
      { t1: 5, t2: 100, approver_role: desk.ld.roleIds.bettor },
      /Saved/,
    );
    try {
      // $3.00 alone is a slip; with a $4.00 multi the stack's $7.00 is above the $5.00 tier: a proposal.
      const first = await multi(race, [`${a}|top4`, `${b}|top4`], 3);
      expect(textOf(first)).toMatch(/Bet slip/);
      const proposal = await add(first, `${e} top 4\n${f} top 4`, '4');
      expect(textOf(proposal)).toMatch(/Bet proposal: 1 more approval needed/);
      expect(textOf(proposal)).toContain(`stack ${a} top 4 + ${b} top 4 ($3.00); ${e} top 4 + ${f} top 4 ($4.00)`);
      expect(await atBook(race)).toHaveLength(0);
      const approved = await press(desk, newTrail(), desk.ld.users.admin, proposal, /^Approve$/);
      await approved.acknowledged;
      await messageMatching(desk, proposal, /Stack placed ✅ 2 of 2 multis/, 20_000);
      expect((await atBook(race)).map((x) => x.bet.stake)).toEqual([3, 4]);
      // One call: both records name the one job.
      const onRace = await desk.bot.store.query<{ correlation_id: string }>(
        'SELECT correlation_id FROM bet_records WHERE epk LIKE ?',
        `%${race.track}/${race.race_num}/%`,
      );
      expect(onRace).toHaveLength(2);
      expect(new Set(onRace.map((r) => r.correlation_id)).size).toBe(1);
    } finally {
      await deskCommand(desk, desk.ld.users.admin, 'settings', 'approvals', { t1: 100, t2: 200 }, /Saved/);
    }
  });

  it('stakes a bonus multi of a stack with its own token, not the cash, says so on the slip, and settles it as the book did', async () => {
    const race = races[3] as Race;
    const [a, b, c, d, e, f] = runners(race) as [string, string, string, string, string, string];
    const gw = new GatewayClient({ baseUrl: desk.sandbox.url, apiKey: API_KEY, poller: { now: desk.now } });
    try {
      const first = await multi(race, [`${a}|top4`, `${b}|top4`], 2);
      // bookie_a's session holds a $25 and a $5 token: no $7 one.
      const none = await add(first, `${c} top 4\n${d} top 4`, '7', undefined, 'yes');
      expect(textOf(none)).toContain('holds no free bonus token worth $7.00 for that multi');
      const stack = await add(first, `${e} top 4\n${f} top 4`, '5', undefined, 'yes');
      const shown = textOf(stack);
      expect(shown).toMatch(/Multi 2 · \$5\.00 bonus token · floor none/);
      expect(shown).toContain("Multi 2 stakes a bonus token worth exactly its stake, not the syndicate's cash");
      expect(shown).toContain('the stack takes $2.00 of cash');
      await desk.advance(31_000);
      const cashBefore = await cashOf(gw, BOOKIE_A_SESSION);
      await press(desk, newTrail(), desk.ld.users.bettor, stack, /^Confirm$/);
      await messageMatching(desk, stack, /Stack placed ✅ 2 of 2 multis/, 20_000);
      const placed = await atBook(race);
      expect(placed.map((x) => [x.bet.stake, x.bet.is_bonus_bet])).toEqual([
        [2, false],
        [5, true],
      ]);
      await desk.advance(31_000);
      expect(await cashOf(gw, BOOKIE_A_SESSION)).toBe(cashBefore - 200);

      await desk.control.settle(race.key);
      await desk.bot.settlement.tickFresh();
      const settled = await until(
        'both multis settled',
        async () => {
          const rows = await desk.bot.store.query<{ bet_id: string; state: string; pnl_cents: number }>(
            'SELECT bet_id, state, pnl_cents FROM bet_records WHERE epk LIKE ? ORDER BY stake_cents',
            `%${race.track}/${race.race_num}/%`,
          );
          return rows.length === 2 && rows.every((r) => r.state === 'settled') ? rows : undefined;
        },
        { timeoutMs: 15_000 },
      );
      const atBookNow = new Map((await atBook(race)).map((x) => [x.bet.bet_id, x]));
      // Each record's P&L is the book's: a lost bonus multi 0 (only the token is gone), a won one its winnings.
      expect(settled.map((r) => r.pnl_cents)).toEqual(
        settled.map((r) => Math.round(Number(atBookNow.get(r.bet_id)?.pnl ?? Number.NaN) * 100)),
      );
      expect(atBookNow.get(settled[1]?.bet_id ?? '')?.bet.is_bonus_bet).toBe(true);
    } finally {
      await gw.close();
    }
  });

  it('offers no stack on a multi slip at a book that takes one multi per bet', async () => {
    const race = races[2] as Race;
    const [a, b] = runners(race) as [string, string];
    const slip = await multi(race, [`${a}|top4`, `${b}|top4`], 2, 'bookie_b');
    expect(textOf(slip)).toMatch(/Bet slip/);
    expect(JSON.stringify(slip.components)).not.toMatch(/Add another multi/);
  });
});
