import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BettableSelection, betSlip, messageMatching, newTrail, pickEvent, press } from '../support/flows.js';
import { API_KEY, type Desk, startDesk } from '../support/harness.js';
import { textOf } from '../support/messages.js';
import { accountLabel } from '../support/sandbox-control.js';
import { until } from '../support/wait.js';

/**
 * Exposure caps across members: the hold is the claim, so two Confirms at once never breach a cap together. Each
 * test bets on its own event and sets the caps and tiers it needs, so any one can run alone.
 */
describe('exposure caps and /exposure', () => {
  let desk: Desk;
  let sels: BettableSelection[];

  beforeAll(async () => {
    desk = await startDesk({ webhooks: true });
    sels = [
      await pickEvent(desk, 'nba', 1),
      await pickEvent(desk, 'nba', 2),
      await pickEvent(desk, 'nba', 3),
      await pickEvent(desk, 'nba', 4),
    ];
  }, 60_000);
  afterAll(() => desk?.close());

  async function admin(name: string, options: Record<string, string | number>, subcommand?: string) {
    const ix = await desk.ld.sendCommand({
      user: desk.ld.users.admin,
      channelId: desk.ld.channelIds.bets,
      name,
      options,
      ...(subcommand ? { subcommand } : {}),
    });
    return until(`the /${name} reply`, () => ix.responses().find((m) => m.embeds.length > 0), { timeoutMs: 20_000 });
  }

  /** A $10 cap per event, and tiers that let the stakes below through without approval. */
  async function capTen() {
    await admin('settings', { per_event: 10 }, 'limits');
    await admin('settings', { t1: 50, t2: 100 }, 'approvals');
  }

  /** One $6 bet (or `stake`) by the bettor on `sel`, placed. */
  async function placeSix(sel: BettableSelection, stake = 6) {
    const trail = newTrail();
    const { slip } = await betSlip(desk, trail, { user: desk.ld.users.bettor, sel, stake });
    await press(desk, trail, desk.ld.users.bettor, slip, /^Confirm$/);
    await messageMatching(desk, slip, /Bet placed ✅/, 20_000);
  }

  it('places exactly one of two concurrent Confirms that together would breach the event cap', async () => {
    const sel = sels[0] as BettableSelection;
    await capTen();
    const trail = newTrail();
    const { bettor, admin: other } = desk.ld.users;
    const a = await betSlip(desk, trail, { user: bettor, sel, stake: 6 });
    const b = await betSlip(desk, trail, { user: other, sel, stake: 6 });
    await Promise.all([
      press(desk, trail, bettor, a.slip, /^Confirm$/),
      press(desk, trail, other, b.slip, /^Confirm$/),
    ]);
    const outcomes = await Promise.all(
      [a.slip, b.slip].map((slip) => messageMatching(desk, slip, /Bet placed ✅|Not placed/, 20_000)),
    );
    const placed = outcomes.filter((m) => /Bet placed ✅/.test(textOf(m)));
    const refused = outcomes.filter((m) => /Not placed/.test(textOf(m)));
    expect(placed).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(textOf(refused[0])).toMatch(/cap of \$10\.00 on .* \(\$6\.00 already rides on it\)\. Room left: \$4\.00/);
    const atGateway = (await desk.control.state()).bets.filter((x) => JSON.stringify(x.bet).includes(sel.epk));
    expect(atGateway).toHaveLength(1);
  });

  it('/exposure shows the open stake on the event equal to the sum of open bets and holds, with the room left', async () => {
    const sel = sels[1] as BettableSelection;
    await capTen();
    await placeSix(sel);
    const open = await desk.bot.store.query<{ total: number }>(
      `SELECT COALESCE(SUM(stake_cents), 0) AS total FROM bet_records
       WHERE epk = ? AND state IN ('sending', 'submitted', 'unknown', 'placed', 'missing')`,
      sel.epk,
    );
    const cents = Number(open[0]?.total);
    expect(cents).toBe(600);
    const reply = await admin('exposure', { event: sel.epk });
    const text = textOf(reply);
    expect(text).toContain(`Open stake on ${sel.name}: **$6.00**`);
    expect(text).toMatch(/By market \(open\)\n.*: \*\*\$6\.00\*\*/);
    const all = await admin('exposure', {});
    expect(textOf(all)).toContain(`${sel.name}: **$6.00** · room $4.00 of $10.00`);
  });

  it('/exposure names the account a bet went through by its book and user name, not its session id', async () => {
    const rows = await desk.bot.store.query<{ session_id: string }>(
      `SELECT session_id FROM bet_records WHERE epk = ? AND state = 'placed'`,
      (sels[1] as BettableSelection).epk,
    );
    const sessionId = rows[0]?.session_id as string;
    const text = textOf(await admin('exposure', {}));
    expect(text).toContain(`${await accountLabel(desk.sandbox.url, API_KEY, sessionId)}: **$`);
    expect(text).not.toContain(sessionId);
  });

  it('/exposure event: agrees with the whole desk: the event line has its cap room, a member line is the whole day', async () => {
    const [elsewhere, sel] = [sels[0] as BettableSelection, sels[3] as BettableSelection];
    await capTen();
    await placeSix(sel, 3);
    // The bettor's day holds stake on another event too: the day cap counts it, so the event view must as well.
    await placeSix(elsewhere, 2);
    const one = textOf(await admin('exposure', { event: sel.epk }));
    const all = textOf(await admin('exposure', {}));
    const eventLine = new RegExp(
      `${sel.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: \\*\\*\\$[\\d.,]+\\*\\* · room [^\\n]+`,
    );
    expect(one.match(eventLine)?.[0]).toBeDefined();
    expect(one.match(eventLine)?.[0]).toBe(all.match(eventLine)?.[0]);
    const memberLine = new RegExp(`<@${desk.ld.users.bettor.id}>: [^\\n]+`);
    expect(one.match(memberLine)?.[0]).toBeDefined();
    expect(one.match(memberLine)?.[0]).toBe(all.match(memberLine)?.[0]);
  });

  it('counts an open proposal as a hold: /exposure shows it and a Confirm that would pass the cap with it is refused', async () => {
    const sel = sels[2] as BettableSelection;
    await capTen();
    await placeSix(sel);
    await admin('settings', { t1: 2, t2: 50 }, 'approvals');
    const ix = await desk.ld.sendCommand({
      user: desk.ld.users.bettor,
      channelId: desk.ld.channelIds.bets,
      name: 'bet',
      options: { event: sel.epk, bookie: sel.bookie, market: sel.market, selection: sel.marketRef, stake: 3 },
    });
    await until('the proposal', () => ix.responses().find((m) => /Bet proposal/.test(textOf(m))), {
      timeoutMs: 20_000,
    });
    const shown = await admin('exposure', { event: sel.epk });
    expect(textOf(shown)).toContain(`Open stake on ${sel.name}: **$9.00**`);
    const trail = newTrail();
    const { slip } = await betSlip(desk, trail, { user: desk.ld.users.admin, sel, stake: 2 });
    await press(desk, trail, desk.ld.users.admin, slip, /^Confirm$/);
    const refused = await messageMatching(desk, slip, /Not placed/, 20_000);
    expect(textOf(refused)).toMatch(/\(\$9\.00 already rides on it\)\. Room left: \$1\.00/);
  });
});
