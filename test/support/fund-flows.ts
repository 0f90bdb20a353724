// The fund's end-to-end flows through the local Discord, shared by the fund e2e files: a command and its answer, a
// strike, the account's history, an unused two-way market, bets placed and settled, each member's P&L by the
// gateway's own history.
import type { APIUser } from 'discord.js';
import { expect } from 'vitest';
import { formatMoney } from '../../src/bot/model/money.js';
import type { GatewayClient, Transaction } from '../../src/gateway/index.js';
import type { LocalMessage } from '../../src/local-discord/index.js';
import { type BettableSelection, betSlip, messageMatching, newTrail, press } from './flows.js';
import type { Desk } from './harness.js';
import { textOf } from './messages.js';
import { until } from './wait.js';

/** The gateway's dollars (a number with at most two decimals) in cents. */
export const cents = (dollars: number | null | undefined) => Math.round(Number(dollars ?? 0) * 100);
/** Cents as the desk shows them: $1,234.50, -$6.00. */
export const money = (c: number) => formatMoney(c);

export interface FundFlows {
  command(
    user: APIUser,
    name: string,
    subcommand: string,
    options: Record<string, string | number | boolean>,
    done: RegExp,
  ): Promise<string>;
  /** The balance cache refreshed (a heartbeat), then /fund strike by the admin. */
  strike(): Promise<string>;
  /**
   * The session's account joins the fund with a float that leaves `navCents` of its cash the fund's (the admin's
   * opening bank), then the opening strike: its answer.
   */
  openWithNav(navCents: number): Promise<string>;
  history(): Promise<Transaction[]>;
  /** Both sides of a two-way market of an upcoming event at bookie_a, not used yet by this desk. */
  market(): Promise<[BettableSelection, BettableSelection]>;
  /** The price each selection was listed at, by market_ref. */
  listed: Map<string, number>;
  /** Each bet placed through /bet and Confirm; then the events settled and the desk caught up. */
  betAndSettle(bets: Array<{ user: APIUser; sel: BettableSelection; stake: number }>): Promise<void>;
  /** The P&L of each member's settled bets on the session, by the gateway's own history, in cents. */
  gatewayPnlByMember(): Promise<Map<string, number>>;
  /**
   * Three tipsters' bets settled: the admin ($5) and the bettor ($6) on the two sides of one market (one of them
   * wins), the viewer ($4) on another. Their P&L by member, as gatewayPnlByMember reads it (those three, checked).
   */
  threeTipsters(): Promise<Map<string, number>>;
}

/**
 * A slash command by `user` through the local Discord (in the bets channel unless told): the text of its first answer
 * matching `done`.
 */
export async function deskCommand(
  desk: Desk,
  user: APIUser,
  name: string,
  subcommand: string,
  options: Record<string, string | number | boolean>,
  done: RegExp,
  channelId = desk.ld.channelIds.bets,
): Promise<string> {
  const ix = await desk.ld.sendCommand({ user, channelId, name, ...(subcommand ? { subcommand } : {}), options });
  const m = await until(
    `/${name} ${subcommand} to answer ${done}`,
    () => ix.responses().find((r) => done.test(textOf(r))),
    { timeoutMs: 30_000, seen: () => ix.responses().map(textOf).join(' | ') },
  );
  return textOf(m);
}

/** /fund strike by the admin after the heartbeat that follows every move so far (the balance it reads is a cache). */
export async function strikeFund(desk: Desk): Promise<string> {
  await desk.advance(31_000);
  return deskCommand(desk, desk.ld.users.admin, 'fund', 'strike', {}, /Struck|Not struck/);
}

/** The history of the account behind a session, as the sandbox lists it (the last three days). */
export async function historyOf(gw: GatewayClient, sessionId: string): Promise<Transaction[]> {
  const out = await (await gw.transactions.list({ session_id: sessionId, days_back: 3, limit: 500 })).wait();
  return out.status === 'completed' ? (out.result.transactions ?? []) : [];
}

/** The sandbox's cash of the account behind a session (balance less bonus), in cents. */
export async function cashOf(gw: GatewayClient, sessionId: string): Promise<number> {
  const b = await gw.balances.get({ session_id: sessionId });
  return cents(b.balance) - cents(b.bonus_balance);
}

/** Both selections of a two-way market of an event at a book, as /bet picks them. */
export function sidesOf(
  e: { event_id: string; name: string; start_time: string },
  m: { market: string; selections: ReadonlyArray<{ market_ref?: string | null; label?: string | null }> },
  bookie: string,
): [BettableSelection, BettableSelection] {
  const sel = (i: number): BettableSelection => ({
    epk: e.event_id,
    name: e.name,
    bookie,
    market: m.market,
    marketRef: m.selections[i]?.market_ref as string,
    label: m.selections[i]?.label ?? '',
    startsAt: Date.parse(e.start_time),
  });
  return [sel(0), sel(1)];
}

/** /bet above the approval tier: the public proposal the bot posts instead of a slip. */
export async function proposeBet(
  desk: Desk,
  user: APIUser,
  sel: BettableSelection,
  stake: number,
): Promise<LocalMessage> {
  const proposed = await desk.ld.sendCommand({
    user,
    channelId: desk.ld.channelIds.bets,
    name: 'bet',
    options: { event: sel.epk, bookie: sel.bookie, market: sel.market, selection: sel.marketRef, stake },
  });
  return until(
    'the proposal',
    () => proposed.responses().find((m) => m.visibleTo === null && /Bet proposal/.test(textOf(m))),
    { timeoutMs: 20_000, seen: () => proposed.responses().map(textOf).join(' | ') },
  );
}

/** /fund report on demand, as a member runs it: the report's message (with its chart, when drawn). */
export async function fundReport(desk: Desk, user: APIUser): Promise<LocalMessage> {
  const ix = await desk.ld.sendCommand({
    user,
    channelId: desk.ld.channelIds.bets,
    name: 'fund',
    subcommand: 'report',
    options: {},
  });
  return until('the report', () => ix.responses().find((m) => /The fund's report/.test(textOf(m))), {
    timeoutMs: 30_000,
  });
}

/** The book's head-to-head market on an event with two bettable sides, when its card takes market_ref bets. */
export async function headToHeadAt(gw: GatewayClient, epk: string, bookie: string) {
  const card = await gw.markets.get({ epk, bookie });
  if (!card.bound || !card.market_ref_betting_enabled) return undefined;
  return card.markets.find(
    (x) =>
      x.market === 'head_to_head' && x.selections.length === 2 && x.selections.every((s) => s.bettable && s.market_ref),
  );
}

export function fundFlows(desk: Desk, gw: GatewayClient, session: string): FundFlows {
  const used = new Set<string>();
  const listed = new Map<string, number>();
  const command: FundFlows['command'] = (user, name, subcommand, options, done) =>
    deskCommand(desk, user, name, subcommand, options, done);
  const strike = () => strikeFund(desk);
  const history = () => historyOf(gw, session);

  async function openWithNav(navCents: number): Promise<string> {
    await desk.advance(31_000);
    const float = ((await cashOf(gw, session)) - navCents) / 100;
    const { admin } = desk.ld.users;
    await command(admin, 'fund', 'accounts', { action: 'add', session, opening_member: admin.id, float }, /Added/);
    return strike();
  }

  async function market(): Promise<[BettableSelection, BettableSelection]> {
    const page = await gw.events.list({ league: 'nba', status: 'prematch', limit: 50 });
    const soon = Date.parse((await desk.control.state()).now) + 3 * 3_600_000;
    for (const e of page.data) {
      if (used.has(e.event_id) || !e.books?.includes('bookie_a') || Date.parse(e.start_time) < soon) continue;
      const m = await headToHeadAt(gw, e.event_id, 'bookie_a');
      if (!m) continue;
      used.add(e.event_id);
      for (const x of m.selections) listed.set(x.market_ref as string, Number(x.odds));
      return sidesOf(e, m, 'bookie_a');
    }
    throw new Error('no unused head-to-head market at bookie_a');
  }

  async function betAndSettle(bets: Array<{ user: APIUser; sel: BettableSelection; stake: number }>): Promise<void> {
    const place = async (b: (typeof bets)[number]) => {
      const trail = newTrail();
      const { slip } = await betSlip(desk, trail, b);
      if (!slip) throw new Error(`no slip for ${b.sel.label}`);
      await press(desk, trail, b.user, slip, /^Confirm$/);
      await messageMatching(desk, slip, /Bet placed ✅/, 30_000);
    };
    // Members' slips at once (each finds its own by member and stake); one member's several slips one by one.
    if (new Set(bets.map((b) => b.user.id)).size === bets.length) await Promise.all(bets.map(place));
    else for (const b of bets) await place(b);
    for (const epk of new Set(bets.map((b) => b.sel.epk))) await desk.control.settle(epk);
    await until(
      'the desk to settle every bet',
      async () => (await desk.bot.store.query("SELECT 1 AS x FROM bet_records WHERE state = 'placed'")).length === 0,
      { timeoutMs: 30_000 },
    );
  }

  async function gatewayPnlByMember(): Promise<Map<string, number>> {
    const records = await desk.bot.store.query<{ bet_id: string; user_id: string }>(
      "SELECT bet_id, user_id FROM bet_records WHERE state = 'settled' AND session_id = ?",
      session,
    );
    const txns = new Map((await history()).map((t) => [t.id, t]));
    const out = new Map<string, number>();
    for (const r of records) {
      const t = txns.get(r.bet_id);
      expect(t, `bet ${r.bet_id} in the history`).toBeDefined();
      out.set(r.user_id, (out.get(r.user_id) ?? 0) + cents(t?.pnl));
    }
    return out;
  }

  async function threeTipsters(): Promise<Map<string, number>> {
    const { admin, bettor, viewer } = desk.ld.users;
    const [a0, a1] = await market();
    const [c0] = await market();
    await betAndSettle([
      { user: admin, sel: a0, stake: 5 },
      { user: bettor, sel: a1, stake: 6 },
      { user: viewer, sel: c0, stake: 4 },
    ]);
    const byMember = await gatewayPnlByMember();
    expect([...byMember.keys()].sort()).toEqual([admin.id, bettor.id, viewer.id].sort());
    return byMember;
  }

  return { command, strike, openWithNav, history, market, listed, betAndSettle, gatewayPnlByMember, threeTipsters };
}

/**
 * /fund tipsters for all time, checked against the gateway: each member's line is their own P&L from the history, and
 * the lines add up to the fund's line to the cent. Returns the fund's P&L.
 */
export async function expectTipstersSumToFund(
  flows: FundFlows,
  admin: APIUser,
  byMember: ReadonlyMap<string, number>,
): Promise<number> {
  const fundPnl = [...byMember.values()].reduce((s, x) => s + x, 0);
  const tipsters = await flows.command(admin, 'fund', 'tipsters', { period: 'all' }, /Who made the fund's money/);
  for (const [member, pnl] of byMember) expect(tipsters).toContain(`<@${member}>: **${money(pnl)}**`);
  const shown = [...tipsters.matchAll(/<@\d+>: \*\*(-?)\$([\d,]+\.\d\d)\*\*/g)].map(
    (m) => (m[1] === '-' ? -1 : 1) * cents(Number(m[2]?.replaceAll(',', ''))),
  );
  expect(shown).toHaveLength(byMember.size);
  expect(shown.reduce((s, x) => s + x, 0)).toBe(fundPnl);
  expect(tipsters).toContain(`**Fund: ${money(fundPnl)}**`);
  return fundPnl;
}
