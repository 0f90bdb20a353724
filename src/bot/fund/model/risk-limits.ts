/**
 * The fund's risk limits as pure rules (decision 1921): a drawdown stop on NAV per unit, a daily loss limit
 * (realised plus open risk) and a cap on one event's share of NAV. Money is whole cents, shares basis points;
 * each refusal names the limit, the room left and who can lift it.
 */

import { formatMoney } from '../../model/money.js';
import { priceOf } from './fund.js';

export interface RiskLimits {
  /** Betting pauses when NAV per unit falls this far below its high-water mark (basis points). */
  drawdownBps?: number;
  /** The most the fund may lose in a day: realised losses plus the stake still at risk (cents). */
  dailyLossCents?: number;
  /** The most of NAV that may ride on one event, across all its markets (basis points). */
  eventShareBps?: number;
  /** Approvers who must agree to resume after a drawdown stop (default 2). */
  resumeQuorum?: number;
}

export type LimitName = 'drawdown' | 'daily_loss' | 'event_share' | 'quorum';

/** Allowed values, in the units stored. */
export const LIMIT_RANGES: Record<LimitName, { min: number; max: number; text: string }> = {
  drawdown: { min: 100, max: 9000, text: '1% to 90%' },
  daily_loss: { min: 100, max: 100_000_000, text: '$1.00 to $1,000,000.00' },
  event_share: { min: 10, max: 10_000, text: '0.1% to 100%' },
  quorum: { min: 1, max: 5, text: '1 to 5 approvers' },
};

export const DEFAULT_RESUME_QUORUM = 2;

export type Parsed = { ok: true; value: number | undefined } | { ok: false; message: string };

const PERCENT = /^(\d{1,3})(?:\.(\d{1,2}))?\s*%?$/;
const DOLLARS = /^\$?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/;

/**
 * One limit setting from the text a treasurer typed: a percent for drawdown and event_share ("15", "12.5%"), dollars
 * for daily_loss ("500", "$1,250.50"), a whole number for quorum; "off" clears it. Exact: no float touches the value.
 */
export function parseLimit(name: LimitName, text: string): Parsed {
  const t = text.trim().toLowerCase();
  const range = LIMIT_RANGES[name];
  if (t === 'off') {
    return name === 'quorum' ? { ok: true, value: DEFAULT_RESUME_QUORUM } : { ok: true, value: undefined };
  }
  let value: number | undefined;
  if (name === 'drawdown' || name === 'event_share') {
    const m = PERCENT.exec(t);
    if (m) value = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  } else if (name === 'daily_loss') {
    const m = DOLLARS.exec(t);
    if (m) value = Number((m[1] ?? '').replaceAll(',', '')) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  } else if (/^\d{1,2}$/.test(t)) value = Number(t);
  const example = { drawdown: '15', daily_loss: '500', event_share: '10', quorum: '2' }[name];
  if (value === undefined || !Number.isSafeInteger(value) || value < range.min || value > range.max) {
    return {
      ok: false,
      message: `${name} must be ${range.text} (e.g. ${name}:${example}), or off. Nothing was changed.`,
    };
  }
  return { ok: true, value };
}

export const bpsText = (bps: number) => `${(bps / 100).toFixed(bps % 100 === 0 ? 0 : 2)}%`;
const money = (cents: number) => formatMoney(cents);

/** NAV per unit at a strike (a UnitPrice, model/unit-price.ts), as the drawdown reads it. */
export interface PricePoint {
  strikeId: string;
  at: number;
  price: number;
}

export interface Drawdown {
  /** The highest price since the mark was last reset; null before any strike since then. */
  mark: PricePoint | null;
  last: PricePoint | null;
  /** How far the last price is below the mark, basis points rounded down; 0 at or above it. */
  drawdownBps: number;
}

/** The drawdown of the last strike's price from the highest since `from` (the last resume; 0 for ever). */
export function drawdownOf(points: readonly PricePoint[], from: number): Drawdown {
  const since = points.filter((p) => p.at >= from && p.price > 0);
  let mark: PricePoint | null = null;
  for (const p of since) if (mark === null || p.price > mark.price) mark = p;
  const last = since.at(-1) ?? null;
  const drawdownBps =
    mark && last && last.price < mark.price ? Math.floor(((mark.price - last.price) * 10_000) / mark.price) : 0;
  return { mark, last, drawdownBps };
}

/**
 * The drawdown between strikes: NAV per unit now is the last strike's NAV (after dealing) plus the P&L of the fund's
 * bets settled since it, over its units (open stake stays at cost, as the strike counts it), so a loss run trips the
 * stop at the next look instead of waiting for the next strike. Only a fall counts: the mark stays a strike's price
 * (a price between strikes never raises it), and with no strike since the mark restarted there is nothing to fall from.
 */
export function drawdownBetween(
  d: Drawdown,
  last: { navCents: number; units: number } | null,
  settledSinceCents: number,
  at: number,
): Drawdown {
  if (!d.mark || !d.last || !last || last.units <= 0 || settledSinceCents >= 0) return d;
  const price = priceOf({ navCents: last.navCents + settledSinceCents, units: last.units }, 0);
  if (price >= d.last.price) return d;
  const bps = price <= 0 ? 10_000 : Math.floor(((d.mark.price - price) * 10_000) / d.mark.price);
  return { mark: d.mark, last: { strikeId: d.last.strikeId, at, price }, drawdownBps: Math.max(d.drawdownBps, bps) };
}

/** Whether a drawdown trips a stop at `limitBps` (at or beyond it). */
export const tripsStop = (d: Drawdown, limitBps: number | undefined): boolean =>
  limitBps !== undefined && d.last !== null && d.drawdownBps >= limitBps;

/** A stop in force: when it tripped, at which price and mark, and who has voted to resume so far. */
export interface Stop {
  at: number;
  strikeId: string;
  drawdownBps: number;
  votes: string[];
  /**
   * The approvers needed to lift this stop: the quorum when it latched. A change while stopped applies from the next
   * stop, so a quorum cannot be lowered to lift the stop in force. Absent on stops latched before it was kept.
   */
  quorum?: number;
}

/** The approvers a stop needs: its own quorum, else the limits' (stops from before the quorum was kept). */
export const quorumOf = (stop: Stop | null, limits: RiskLimits): number =>
  stop?.quorum ?? limits.resumeQuorum ?? DEFAULT_RESUME_QUORUM;

export type RiskCheck = { ok: true } | { ok: false; limit: LimitName; roomCents: number; message: string };

const resumeWho = (quorum: number) =>
  `${quorum} approver${quorum === 1 ? '' : 's'} (members with the approver role or Manage Server) each run /fund resume`;

export function stopRefusal(stop: Stop, limits: RiskLimits): RiskCheck {
  const quorum = quorumOf(stop, limits);
  return {
    ok: false,
    limit: 'drawdown',
    roomCents: 0,
    message:
      `Not placed: the fund's drawdown stop is on (NAV per unit fell ${bpsText(stop.drawdownBps)} below its high-water mark; ` +
      `the stop is ${bpsText(limits.drawdownBps ?? 0)}). Room left: none until betting resumes. ` +
      `It resumes when ${resumeWho(quorum)}; ${stop.votes.length} of ${quorum} so far. See /exposure.`,
  };
}

/** The daily loss limit: today's realised P&L less the stake at risk, and this stake, must not pass the limit. */
export function checkDailyLoss(x: {
  limitCents: number | undefined;
  realisedTodayCents: number;
  openStakeCents: number;
  stakeCents: number;
}): RiskCheck {
  if (x.limitCents === undefined) return { ok: true };
  const used = Math.max(0, x.openStakeCents - x.realisedTodayCents);
  const room = Math.max(0, x.limitCents - used);
  if (x.stakeCents <= room) return { ok: true };
  return {
    ok: false,
    limit: 'daily_loss',
    roomCents: room,
    message:
      `Not placed: this ${money(x.stakeCents)} stake would take the fund past its daily loss limit of ${money(x.limitCents)} ` +
      `(today's realised P&L ${money(x.realisedTodayCents)}, ${money(x.openStakeCents)} still at risk). Room left: ${money(room)}. ` +
      'A treasurer can raise it with /fund limits daily_loss:, or it resets at midnight. See /exposure.',
  };
}

/** The cap on one event's share of NAV: the fund's open stake on it, all markets, and this stake. */
export function eventCapCents(navCents: number, shareBps: number): number {
  return Math.floor((navCents * shareBps) / 10_000);
}

export function checkEventShare(x: {
  shareBps: number | undefined;
  navCents: number | null;
  eventOpenCents: number;
  stakeCents: number;
  eventName: string;
}): RiskCheck {
  if (x.shareBps === undefined || x.navCents === null) return { ok: true };
  const cap = eventCapCents(x.navCents, x.shareBps);
  const room = Math.max(0, cap - x.eventOpenCents);
  if (x.stakeCents <= room) return { ok: true };
  return {
    ok: false,
    limit: 'event_share',
    roomCents: room,
    message:
      `Not placed: the fund may have at most ${bpsText(x.shareBps)} of NAV (${money(cap)}) on ${x.eventName}, all markets together, ` +
      `and ${money(x.eventOpenCents)} already rides on it. Room left: ${money(room)}. ` +
      'A treasurer can raise it with /fund limits event_share:. See /exposure.',
  };
}

/** The limits in force as lines for /exposure and the weekly report. */
export function limitLines(x: {
  limits: RiskLimits;
  drawdown: Drawdown;
  stop: Stop | null;
  /** The drawdown is past the limit and no stop is latched yet: the next bet or approval latches it. */
  tripped?: boolean;
  realisedTodayCents: number;
  openStakeCents: number;
  navCents: number | null;
  /** The event with the most of the fund's open stake (or the one asked about). */
  topEvent?: { name: string; openCents: number };
}): string[] {
  const { limits } = x;
  const out: string[] = [];
  const quorum = quorumOf(x.stop, limits);
  if (limits.drawdownBps !== undefined) {
    const state = x.stop
      ? `**stopped** since a ${bpsText(x.stop.drawdownBps)} fall; resumes when ${resumeWho(quorum)} (${x.stop.votes.length} of ${quorum} so far)`
      : x.tripped
        ? `**tripped** by a ${bpsText(x.drawdown.drawdownBps)} fall: the next bet on the fund's accounts is refused and betting stops until ${resumeWho(quorum)}`
        : `now ${bpsText(x.drawdown.drawdownBps)} below the mark, room ${bpsText(Math.max(0, limits.drawdownBps - x.drawdown.drawdownBps))}`;
    out.push(`Drawdown stop at ${bpsText(limits.drawdownBps)}: ${state}`);
  }
  const set = limits.resumeQuorum ?? DEFAULT_RESUME_QUORUM;
  if (limits.resumeQuorum !== undefined) {
    const inForce = x.stop && quorum !== set ? `; the stop in force keeps its quorum of ${quorum}` : '';
    out.push(`Resume quorum: ${set} approver${set === 1 ? '' : 's'} from the next stop${inForce}`);
  }
  if (limits.dailyLossCents !== undefined) {
    const used = Math.max(0, x.openStakeCents - x.realisedTodayCents);
    out.push(
      `Daily loss limit ${money(limits.dailyLossCents)}: ${money(used)} used (realised ${money(x.realisedTodayCents)}, at risk ${money(x.openStakeCents)}), room ${money(Math.max(0, limits.dailyLossCents - used))}`,
    );
  }
  if (limits.eventShareBps !== undefined) {
    if (x.navCents === null) out.push(`Per event ${bpsText(limits.eventShareBps)} of NAV: no strike yet, not checked`);
    else {
      const cap = eventCapCents(x.navCents, limits.eventShareBps);
      const top = x.topEvent
        ? `; ${x.topEvent.name}: ${money(x.topEvent.openCents)}, room ${money(Math.max(0, cap - x.topEvent.openCents))}`
        : '';
      out.push(`Per event ${bpsText(limits.eventShareBps)} of NAV (${money(cap)})${top}`);
    }
  }
  if (out.length > 0) out.push('A treasurer sets these with /fund limits.');
  return out;
}
