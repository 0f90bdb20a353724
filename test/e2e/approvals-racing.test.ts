import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainStaged } from '../../src/bot/ledger/index.js';
import type { LocalMessage } from '../../src/local-discord/index.js';
import { localDay, raceStartMs, TRACKS } from '../../src/sandbox/world/racing.js';
import { messageMatching, newTrail, press, steadyPrices, waitForModal } from '../support/flows.js';
import { type Desk, startDesk } from '../support/harness.js';
import { findControl, textOf } from '../support/messages.js';
import { until } from '../support/wait.js';

/**
 * Maker-checker for racing bets through the local Discord: a /bet-racing stake above t1 is a proposal like a
 * sports one (the approval binds the race, runner and market), the proposer never approves it, the last
 * approval places it once through the racing Confirm path, and a stake up to t1 is a plain slip.
 */
describe('approvals of racing bets', () => {
  let desk: Desk;
  let race: Race;
  let runners: string[];
  /** A race of its own on another track, for the cap test. */
  let capRace: Race;
  let capRunners: string[];

  beforeAll(async () => {
    desk = await startDesk({ webhooks: true });
    const races = openRaces(desk.now());
    race = races[0] as Race;
    capRace = races.find((r) => r.track !== race.track) as Race;
    desk.ld.setMemberRoles(desk.ld.users.viewer.id, [desk.ld.roleIds.bettor]);
    const ix = await desk.ld.sendCommand({
      user: desk.ld.users.admin,
      channelId: desk.ld.channelIds.bets,
      name: 'settings',
      subcommand: 'approvals',
      options: { t1: 5, t2: 10, approver_role: desk.ld.roleIds.bettor },
    });
    await until('the settings saved', () => ix.responses().find((m) => /Saved/.test(m.content ?? '')), {
      timeoutMs: 20_000,
    });
    runners = await runnersOf(race);
    capRunners = await runnersOf(capRace);
    expect(runners.length).toBeGreaterThan(2);
    expect(capRunners.length).toBeGreaterThan(2);
  }, 60_000);

  /**
   * The race's runners from /bet-racing's autocomplete. The bot answers an autocomplete within its short budget,
   * with no runners when the race's prices have not come back yet (a busy machine), so ask until they have.
   */
  async function runnersOf(r: Race): Promise<string[]> {
    const ask = async () => {
      const choices = (await desk.ld.autocomplete({
        user: desk.ld.users.bettor,
        channelId: desk.ld.channelIds.bets,
        name: 'bet-racing',
        options: { track: r.value, race: r.raceNum, date: r.date, runner: '' },
        focused: 'runner',
      })) as Array<{ value: string }>;
      return choices.length > 0 ? choices.map((c) => c.value) : undefined;
    };
    return until(`the runners of ${r.track} R${r.raceNum}`, ask, { timeoutMs: 20_000, everyMs: 250 });
  }
  afterAll(() => desk?.close());

  /** /bet-racing as the bettor; resolves with the first public message the bot posts for it. */
  async function betRacing(
    runner: string,
    stake: number,
    market = 'win',
    as: 'bettor' | 'admin' = 'bettor',
    on: Race = race,
  ): Promise<LocalMessage> {
    const handle = await desk.ld.sendCommand({
      user: desk.ld.users[as],
      channelId: desk.ld.channelIds.bets,
      name: 'bet-racing',
      options: { track: on.value, race: on.raceNum, date: on.date, runner, market, stake, bookie: 'bookie_a' },
    });
    return until('the public slip or proposal', () => handle.responses().find((m) => m.visibleTo === null), {
      timeoutMs: 20_000,
    });
  }

  async function admin(name: string, options: Record<string, string | number>, subcommand: string) {
    const ix = await desk.ld.sendCommand({
      user: desk.ld.users.admin,
      channelId: desk.ld.channelIds.bets,
      name,
      subcommand,
      options,
    });
    await until(`the /${name} reply`, () => ix.responses().find((m) => /Saved/.test(textOf(m))), { timeoutMs: 20_000 });
  }

  async function click(user: keyof Desk['ld']['users'], message: LocalMessage, label: RegExp): Promise<string> {
    const u = desk.ld.users[user];
    const handle = await press(desk, newTrail(), u, desk.ld.message(message.id) ?? message, label);
    const reply = await until(
      `${user}'s answer`,
      () => handle.responses().find((m) => m.visibleTo === u.id && textOf(m) !== ''),
      { timeoutMs: 20_000 },
    );
    return textOf(reply);
  }

  /** The sandbox's bets on this race's runner. */
  const betsOn = async (runner: string, on: Race = race) =>
    (await desk.control.state()).bets.filter((b) => {
      const body = JSON.stringify(b.bet);
      return body.includes(on.track) && body.includes(runner);
    });

  const proposalOf = async (runner: string) =>
    (
      await desk.bot.store.query<{ proposal_id: string; state: string; market_ref: string; epk: string }>(
        'SELECT proposal_id, state, market_ref, epk FROM proposals WHERE market_ref LIKE ?',
        `runner ${runner} ·%`,
      )
    )[0];

  it('places a racing stake above t2 once, after two different approvers, bound to the race and runner', async () => {
    const runner = runners[0] as string;
    const proposal = await betRacing(runner, 12);
    const text = textOf(proposal);
    expect(text).toMatch(/Bet proposal: 2 more approvals needed/);
    expect(text).toContain(`${race.track} R${race.raceNum}`);
    expect(text).toMatch(new RegExp(`An approval binds bookie_a · alpha_a · ${race.track} R${race.raceNum} `));
    expect(text).toContain(`runner ${runner} · win · $12.00 at `);
    expect(text).not.toMatch(/^Confirm$/m);

    expect(await click('admin', proposal, /^Approve$/)).toMatch(/Approved\. 1 more approval needed/);
    await messageMatching(desk, proposal, /1 more approval needed/);
    expect(await betsOn(runner)).toHaveLength(0);
    expect(await click('viewer', proposal, /^Approve$/)).toMatch(/last approval/);

    const placed = await messageMatching(desk, proposal, /Bet placed ✅/, 20_000);
    expect(placed.components ?? []).toEqual([]);
    const bets = await betsOn(runner);
    expect(bets).toHaveLength(1);
    expect(bets[0]?.bet).toMatchObject({
      stake: 12,
      selections: [
        expect.objectContaining({ event: `${race.track} R${race.raceNum}`, selection: runner, market: 'win' }),
      ],
    });
    expect((await proposalOf(runner))?.state).toBe('placed');
    const [record] = await desk.bot.store.query<{ state: string; stake_cents: number; epk: string }>(
      'SELECT r.state, r.stake_cents, r.epk FROM bet_records r JOIN proposals p ON p.slip_id = r.slip_id WHERE p.market_ref LIKE ?',
      `runner ${runner} ·%`,
    );
    expect(record).toMatchObject({ stake_cents: 1200, epk: (await proposalOf(runner))?.epk });
    await chainStaged(desk.bot.store); // as every read of the ledger does (decision 2131)
    const ledger = (
      await desk.bot.store.query<{ kind: string; actor: string | null; ref: string }>(
        'SELECT kind, actor, ref FROM ledger ORDER BY seq',
      )
    ).filter((r) => r.kind !== 'limit_change');
    expect(ledger.slice(0, 4).map((r) => [r.kind, r.actor])).toEqual([
      ['proposal', desk.ld.users.bettor.id],
      ['approval', desk.ld.users.admin.id],
      ['approval', desk.ld.users.viewer.id],
      ['hold', desk.ld.users.bettor.id],
    ]);
  });

  it('refuses the proposer’s own approval of a racing proposal and places nothing', async () => {
    const runner = runners[1] as string;
    const proposal = await betRacing(runner, 7, 'place');
    expect(textOf(proposal)).toMatch(/Bet proposal: 1 more approval needed/);
    expect(await click('bettor', proposal, /^Approve$/)).toMatch(/You proposed this bet, so you cannot approve it/);
    const stored = await proposalOf(runner);
    expect(stored?.state).toBe('open');
    const approvals = await desk.bot.store.query(
      'SELECT 1 AS one FROM approvals WHERE proposal_id = ?',
      stored?.proposal_id,
    );
    expect(approvals).toHaveLength(0);
    expect(textOf(desk.ld.message(proposal.id))).toMatch(/1 more approval needed/);
    expect(await betsOn(runner)).toHaveLength(0);
  });

  it('posts a racing stake up to t1 as a plain slip its owner confirms, with no proposal', async () => {
    const runner = runners[2] as string;
    const slip = await betRacing(runner, 3);
    expect(textOf(slip)).toMatch(/Bet slip/);
    expect(textOf(slip)).not.toMatch(/Bet proposal/);
    expect(await proposalOf(runner)).toBeUndefined();
    await press(desk, newTrail(), desk.ld.users.bettor, slip, /^Confirm$/);
    await messageMatching(desk, slip, /Bet placed ✅/, 20_000);
    expect(await betsOn(runner)).toHaveLength(1);
  });

  it('counts an open racing proposal against the race’s cap: a slip that would pass the cap with it is refused', async () => {
    // On a race of its own: $3.00 placed and an open $7.00 proposal (a hold) ride on it.
    const [placed, proposed, refusedRunner] = capRunners as [string, string, string];
    const first = await betRacing(placed, 3, 'win', 'bettor', capRace);
    await press(desk, newTrail(), desk.ld.users.bettor, first, /^Confirm$/);
    await messageMatching(desk, first, /Bet placed ✅/, 20_000);
    expect(textOf(await betRacing(proposed, 7, 'win', 'bettor', capRace))).toMatch(/Bet proposal/);
    await admin('settings', { per_event: 13 }, 'limits');
    try {
      const slip = await betRacing(refusedRunner, 4, 'win', 'admin', capRace);
      expect(textOf(slip)).toMatch(/Bet slip/);
      await press(desk, newTrail(), desk.ld.users.admin, slip, /^Confirm$/);
      const refused = await messageMatching(desk, slip, /Not placed/, 20_000);
      expect(textOf(refused)).toMatch(/\(\$10\.00 already rides on it\)\. Room left: \$3\.00/);
      expect(await betsOn(refusedRunner, capRace)).toHaveLength(0);
    } finally {
      await admin('settings', { per_event: 0 }, 'limits');
    }
  });

  it('posts a promo stake above t1 from /promos as a proposal, placed through place_promo by the approval', async () => {
    const user = desk.ld.users.bettor;
    const channelId = desk.ld.channelIds.bets;
    const ix = await desk.ld.sendCommand({ user, channelId, name: 'promos', options: {} });
    const inbox = await until('the promo inbox', () => ix.responses().find((m) => /Promo inbox/.test(textOf(m))), {
      timeoutMs: 20_000,
    });
    const pick = findControl(inbox, /^v1:promo:pick/);
    const option = pick?.options?.[0];
    if (!pick || !option) throw new Error(`the inbox offers no placeable promo: ${textOf(inbox)}`);
    const modal = waitForModal(desk, user.id);
    await desk.ld.selectMenu({ user, message: inbox, customId: pick.customId, values: [option.value] });
    const { customId, stakeField } = await modal;
    const before = (await desk.control.state()).bets.length;
    const handle = await desk.ld.submitModal({ user, channelId, customId, fields: { [stakeField]: '7' } });
    const proposal = await until(
      'the promo proposal',
      () => handle.responses().find((m) => m.visibleTo === null && /Bet proposal/.test(textOf(m))),
      { timeoutMs: 20_000 },
    );
    expect(textOf(proposal)).toMatch(/Bet boost/);
    expect(textOf(proposal)).toContain(`promo #${option.value} · $7.00 at `);
    expect((await desk.control.state()).bets.length).toBe(before);
    expect(await click('admin', proposal, /^Approve$/)).toMatch(/last approval/);
    await messageMatching(desk, proposal, /Bet placed ✅/, 30_000);
    expect((await desk.control.state()).bets.length).toBe(before + 1);
    const [record] = await desk.bot.store.query<{ payload: string; stake_cents: number }>(
      'SELECT r.payload, r.stake_cents FROM bet_records r JOIN proposals p ON p.slip_id = r.slip_id WHERE p.market_ref = ?',
      `promo #${option.value}`,
    );
    expect(record?.stake_cents).toBe(700);
    expect(JSON.parse(record?.payload ?? '{}')).toMatchObject({
      kind: 'promo',
      promo: { promoId: Number(option.value) },
    });
  });

  it('lapses a racing approval when the runner’s price moved, shows old → new, and places at the new price', async () => {
    const runner = runners[4] as string;
    // The drift and the 11 s below must be the only moves between the proposal and the placement.
    await steadyPrices(desk, 3 * 60_000);
    await admin('settings', { per_event: 100 }, 'limits');
    const proposal = await betRacing(runner, 6);
    expect(textOf(proposal)).toMatch(/Bet proposal: 1 more approval needed/);
    const res = await fetch(`${desk.sandbox.url}/_sandbox/world/drift`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ factor: 0.8, bookie: 'bookie_a', market: 'win' }),
    });
    expect(res.ok).toBe(true);
    // A price read under 10 s ago comes back from the gateway's fast path: move past it.
    await desk.control.advance(11_000);
    expect(await click('admin', proposal, /^Approve$/)).toMatch(/Not counted: the price moved \d+\.\d+ → \d+\.\d+/);
    const moved = await messageMatching(desk, proposal, /The price moved from \d+\.\d+ to \d+\.\d+/);
    expect(textOf(moved)).toMatch(/approvals so far lapsed/);
    expect(await betsOn(runner)).toHaveLength(0);
    expect(await click('admin', proposal, /^Approve$/)).toMatch(/last approval/);
    await messageMatching(desk, proposal, /Bet placed ✅/, 20_000);
    expect(await betsOn(runner)).toHaveLength(1);
  });

  it('posts a stake above t1 made from the Bet menu under /price racing as a proposal, placed by its approval', async () => {
    const user = desk.ld.users.bettor;
    const channelId = desk.ld.channelIds.bets;
    const ix = await desk.ld.sendCommand({
      user,
      channelId,
      name: 'price',
      subcommand: 'racing',
      options: { track: race.value, race: race.raceNum, date: race.date },
    });
    const board = await until('the race prices', () => ix.responses().find((m) => findControl(m, /^v1:race:pick:/)), {
      timeoutMs: 20_000,
    });
    const pick = findControl(board, /^v1:race:pick:/);
    const option = pick?.options?.find((o) => !runners.slice(0, 5).includes(o.label));
    if (!pick || !option) throw new Error(`the race board offers no runner left to bet: ${textOf(board)}`);
    const modal = waitForModal(desk, user.id);
    await desk.ld.selectMenu({ user, message: board, customId: pick.customId, values: [option.value] });
    const { customId, stakeField } = await modal;
    const handle = await desk.ld.submitModal({
      user,
      channelId,
      customId,
      fields: { [stakeField]: '8', market: 'win', min_odds: '' },
    });
    const proposal = await until(
      'the proposal from the menu',
      () => handle.responses().find((m) => m.visibleTo === null && /Bet proposal/.test(textOf(m))),
      { timeoutMs: 20_000 },
    );
    expect(textOf(proposal)).toContain(`runner ${option.label} · win · $8.00 at `);
    expect(await betsOn(option.label)).toHaveLength(0);
    expect(await click('viewer', proposal, /^Approve$/)).toMatch(/last approval/);
    await messageMatching(desk, proposal, /Bet placed ✅/, 20_000);
    expect(await betsOn(option.label)).toHaveLength(1);
  });

  it('reminds approvers of a racing proposal at half-time, then expires it and places nothing', async () => {
    await admin('settings', { expiry_minutes: 0.25 }, 'approvals');
    const runner = runners[3] as string;
    const before = (await betsOn(runner)).length;
    const proposal = await betRacing(runner, 9, 'place');
    const reminder = await desk.ld.waitForMessage(
      desk.ld.channelIds.bets,
      (m) => /^Reminder for <@&/.test(m.content ?? '') && (m.content ?? '').includes(`on ${runner}, ${race.track} R`),
      20_000,
    );
    expect(reminder.content).toContain(`<@&${desk.ld.roleIds.bettor}>`);
    const expired = await messageMatching(desk, proposal, /Bet proposal expired/, 30_000);
    expect(textOf(expired)).toMatch(/Propose it again with \/bet-racing/);
    expect(expired.components ?? []).toEqual([]);
    expect(await betsOn(runner)).toHaveLength(before);
  }, 60_000);
});

interface Race {
  value: string;
  track: string;
  raceNum: number;
  date: string;
}

/** Races that jump well after the test, soonest day first: today's on a track if any are left, else tomorrow's. */
function openRaces(now: number): Race[] {
  const open: Race[] = [];
  for (const def of TRACKS) {
    for (const dayOffset of [0, 1]) {
      const date = localDay(def, now + dayOffset * 86_400_000);
      for (let n = 1; n <= 8; n++) {
        if (raceStartMs(def, n, date) > now + 30 * 60_000) {
          open.push({ value: `${def.track} (${def.race_type})`, track: def.track, raceNum: n, date });
        }
      }
    }
  }
  open.sort((a, b) => (a.date === b.date ? 0 : a.date < b.date ? -1 : 1));
  if (open.length === 0) throw new Error('the sandbox offers no race that is still open');
  return open;
}
