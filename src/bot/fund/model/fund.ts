/**
 * The syndicate's bank as arithmetic: NAV, units, dealing at a strike, the performance fee and members' shares.
 * Pure (docs/fund.md, decisions 1700–1702). Money is whole cents; units are fixed-point integers with
 * UNIT_DECIMALS decimals (1 unit = UNIT_SCALE). Products are taken in BigInt, so no step loses a cent to floats.
 *
 * The rounding rule, one for everything: **rounding favours the fund**. Units issued are rounded down, cash paid
 * for units redeemed is rounded down, units cancelled for a cash amount are rounded up, a fee is rounded down;
 * the fraction left over stays in NAV, shared by every unit. When NAV is shared out among members for a
 * statement, each member gets the whole cents below their exact share and the cents left over (fewer than the
 * number of members) go one each to the largest fractional parts, ties to the member who joined first; the
 * residual is shown with the statement.
 */

import { grouped } from '../../model/grouped.js';
import { formatMoney } from '../../model/money.js';
import { type TipsterShare, type TipsterShareTerms, tipsterShareAt } from './tipster-share.js';
import { PRICE_SCALE, type UnitPrice } from './unit-price.js';

export { PRICE_SCALE } from './unit-price.js';

export const UNIT_DECIMALS = 6;
export const UNIT_SCALE = 10 ** UNIT_DECIMALS;

const big = (n: number) => BigInt(n);
const num = (n: bigint) => Number(n);
const floorDiv = (a: bigint, b: bigint) => {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
};
const ceilDiv = (a: bigint, b: bigint) => -floorDiv(-a, b);

/** What NAV is made of, each in cents. Bonus tokens are not cash: `bonusCents` is read and left out. */
export interface NavInputs {
  /** One row per fund account; `floatCents` is cash in it the fund does not own (kept out by amount). */
  sessions: ReadonlyArray<{ sessionId: string; balanceCents: number; bonusCents: number; floatCents?: number }>;
  /** Stake of the fund's placed bets not yet settled, at cost (decision 1701). */
  openStakeCents: number;
  /** Withdrawn from a session for a cash-out and not yet marked paid to the member. */
  withdrawnUnpaidCents: number;
  /** Redemptions struck and fees crystallised, not yet paid (a liability until the member or manager is paid). */
  owedRedemptionsCents: number;
  /** Contributions recorded (the money is in a session) but not yet dealt: theirs, not the fund's, until dealt. */
  pendingContributionsCents: number;
}

export interface Nav {
  cashCents: number;
  bonusCents: number;
  navCents: number;
}

/**
 * NAV before the performance fee's accrual = cash (balance − bonus) + open stake + withdrawn-not-paid − owed
 * (redemptions and crystallised fees) − pending contributions. The accrual is worked out afresh at each strike
 * (strike()), so it is not an input: the strike's NAV is this less it.
 */
export function navOf(i: NavInputs): Nav {
  const cashCents = i.sessions.reduce((a, s) => a + s.balanceCents - s.bonusCents - (s.floatCents ?? 0), 0);
  const bonusCents = i.sessions.reduce((a, s) => a + s.bonusCents, 0);
  const navCents =
    cashCents + i.openStakeCents + i.withdrawnUnpaidCents - i.owedRedemptionsCents - i.pendingContributionsCents;
  return { cashCents, bonusCents, navCents };
}

/** A strike's price: NAV over units (or the opening price when no unit is out yet). */
export interface Book {
  navCents: number;
  units: number;
}

/** Price per whole unit, a UnitPrice (rounded down; for display and the high-water mark). */
export function priceOf(book: Book, openingPriceCents: number): UnitPrice {
  if (book.units === 0) return openingPriceCents * PRICE_SCALE;
  return num(floorDiv(big(book.navCents) * big(UNIT_SCALE) * big(PRICE_SCALE), big(book.units)));
}

/** Units with UNIT_DECIMALS decimals: 1,234.500000. */
export function formatUnits(units: number): string {
  const whole = Math.trunc(units / UNIT_SCALE);
  const frac = String(Math.abs(units % UNIT_SCALE)).padStart(UNIT_DECIMALS, '0');
  return `${units < 0 ? '-' : ''}${grouped(Math.abs(whole))}.${frac}`;
}

/**
 * Why a book cannot deal: no NAV to price units at while units are out, or, before the first units, money in the
 * sessions that no contribution accounts for (it would fall to whoever is dealt first).
 */
export function cannotDeal(book: Book): string | undefined {
  if (book.units === 0 && book.navCents !== 0) {
    return `the fund's sessions hold ${formatMoney(book.navCents)} that no contribution accounts for: record whose money it is as a contribution, then strike again`;
  }
  if (book.units > 0 && book.navCents <= 0) {
    return `NAV is ${book.navCents < 0 ? 'below' : 'at'} zero with units outstanding: no price to deal at`;
  }
  return undefined;
}

/** Units issued for a contribution at the strike (rounded down). */
export function unitsFor(amountCents: number, book: Book, openingPriceCents: number): number {
  if (book.units === 0) return num(floorDiv(big(amountCents) * big(UNIT_SCALE), big(openingPriceCents)));
  return num(floorDiv(big(amountCents) * big(book.units), big(book.navCents)));
}

/** Cash for units redeemed at the strike (rounded down). */
export function centsFor(units: number, book: Book): number {
  if (book.units === 0) return 0;
  return num(floorDiv(big(units) * big(book.navCents), big(book.units)));
}

/**
 * A cash-out request: an amount of money, a number of units, or everything the member holds; `fee` is the
 * manager's crystallised performance fee and `share` a tipster's crystallised tipster share (decision 1923), each
 * owed and paid out like a struck cash-out (they cancel no units).
 */
export type CashoutAsk =
  | { kind: 'amount'; cents: number }
  | { kind: 'units'; units: number }
  | { kind: 'all' }
  | { kind: 'fee' }
  | { kind: 'share' };

/** Whether a cash-out is owed by a strike (the fee or a tipster share) rather than asked for by a member's units. */
export const owedByStrike = (ask: CashoutAsk): boolean => ask.kind === 'fee' || ask.kind === 'share';

/**
 * A redemption at the strike: the units cancelled and the cents owed. An amount cancels the units that buy it,
 * rounded up; asking for more than the member holds redeems all they hold.
 */
export function redemptionFor(ask: CashoutAsk, holding: number, book: Book): { units: number; cents: number } {
  if (owedByStrike(ask) || holding <= 0 || book.units === 0 || book.navCents <= 0) return { units: 0, cents: 0 };
  if (ask.kind === 'amount') {
    const units = num(ceilDiv(big(ask.cents) * big(book.units), big(book.navCents)));
    if (units < holding) return { units, cents: ask.cents };
  }
  const units = ask.kind === 'units' ? Math.min(ask.units, holding) : holding;
  return { units, cents: centsFor(units, book) };
}

/**
 * A performance fee: a share of the gain above the high-water mark (off when rateBps is 0). The mark is a price
 * per unit that moves only when the fee crystallises (or, as an average, when units are dealt: strike()).
 */
export interface FeeTerms {
  rateBps: number;
  /** The high-water mark, a UnitPrice; 0: not set yet (set by the first units dealt). */
  highWaterPrice: number;
}

/**
 * The fee accrued at a strike: rateBps of (NAV before the fee − units × mark), rounded down; nothing at or below
 * the mark. Worked out afresh at every strike, so a loss after a gain takes the accrual back down.
 */
export function feeAt(book: Book, terms: FeeTerms): number {
  if (terms.rateBps <= 0) return 0;
  const gain = gainAboveMark(book, terms.highWaterPrice);
  if (gain <= 0) return 0;
  return num(floorDiv(big(gain) * big(terms.rateBps), 10_000n));
}

/**
 * The fund's gain above its high-water mark in cents: NAV less units × mark (the mark's value rounded up, the fund's
 * favour), 0 at or below it, with no units or with no mark yet. The fee and the tipster share's cap both read it.
 */
export function gainAboveMark(book: Book, highWaterPrice: number): number {
  if (book.units === 0 || highWaterPrice === 0) return 0;
  const markValue = ceilDiv(big(highWaterPrice) * big(book.units), big(UNIT_SCALE) * big(PRICE_SCALE));
  const gain = big(book.navCents) - markValue;
  return gain <= 0n ? 0 : num(gain);
}

export interface DealIn {
  id: string;
  memberId: string;
  cents: number;
}
export interface DealOut {
  id: string;
  memberId: string;
  ask: CashoutAsk;
}
export interface Dealt {
  id: string;
  memberId: string;
  units: number;
  cents: number;
}

export interface StrikeResult {
  /** NAV before the fee, the tipster share and dealing, from the inputs. */
  grossNavCents: number;
  /** The fee accrued at this strike (the whole period's, worked out afresh). */
  feeCents: number;
  /** Of it, what crystallises now (owed to the manager): all of it on a crystallisation, else the leavers' share. */
  crystallisedCents: number;
  /** Of it, what stays accrued after the strike. */
  accruedAfterCents: number;
  /** The high-water mark after the strike. */
  highWaterPrice: number;
  /** The tipster share at this strike (decision 1923), when the fund has it on. */
  share?: TipsterShare;
  /** NAV after the fee and the tipster share, before dealing: the strike's price is this over `unitsBefore`. */
  navCents: number;
  unitsBefore: number;
  price: number;
  issued: Dealt[];
  redeemed: Dealt[];
  /** After dealing: NAV + contributions − redemptions, and units outstanding. */
  navAfterCents: number;
  unitsAfter: number;
  /** Members' units after dealing. */
  holdings: Map<string, number>;
  /** Why nothing was dealt (requests stay pending), if so. */
  held?: string;
}

/**
 * One strike: accrue the fee, price units, issue units for contributions, redeem cash-outs. Contributions are
 * dealt before cash-outs at the same price, so a member's own contribution can be cashed out at that strike.
 *
 * The fee (decision 1704): the accrual is worked out afresh on the whole fund; units redeemed take their share of
 * it with them, crystallised (they paid it through the price); on a crystallisation (`crystallise`, the first
 * strike of each fee period) all of it crystallises and the mark moves up to the price after the strike. Dealing
 * moves the mark as an average: money coming in raises the mark's value by its amount, units leaving take their
 * share of it, so dealing neither charges a newcomer for gains made before they came nor changes the accrual.
 */
export function strike(input: {
  nav: Nav;
  units: number;
  holdings: ReadonlyMap<string, number>;
  contributions: readonly DealIn[];
  cashouts: readonly DealOut[];
  fee: FeeTerms;
  openingPriceCents: number;
  /** The first strike of a fee period: the accrual crystallises. */
  crystallise?: boolean;
  /**
   * The tipster share (decision 1923): its rate and each tipster's P&L and mark. Worked out afresh like the fee, on
   * the same gain above the same mark (its cap), crystallised at the same strikes; NAV and the price are net of it.
   */
  share?: TipsterShareTerms;
}): StrikeResult {
  const gross: Book = { navCents: input.nav.navCents, units: input.units };
  const feeCents = feeAt(gross, input.fee);
  const crystallise = input.crystallise === true;
  const share =
    input.share && input.share.rateBps > 0
      ? tipsterShareAt(input.share, gainAboveMark(gross, input.fee.highWaterPrice), { crystallise })
      : undefined;
  const shareCents = share?.accruedCents ?? 0;
  const shareAfterCents = share?.accruedAfterCents ?? 0;
  const book: Book = { navCents: input.nav.navCents - feeCents - shareCents, units: input.units };
  const holdings = new Map(input.holdings);
  const base = {
    grossNavCents: input.nav.navCents,
    feeCents,
    crystallisedCents: crystallise ? feeCents : 0,
    accruedAfterCents: crystallise ? 0 : feeCents,
    ...(share ? { share } : {}),
    highWaterPrice: keepAccrual(
      crystallise && book.units > 0 && book.navCents > 0
        ? Math.max(input.fee.highWaterPrice, priceOf(book, 0))
        : input.fee.highWaterPrice,
      { navCents: book.navCents + shareAfterCents, units: book.units },
      crystallise ? 0 : feeCents,
      input.fee.rateBps,
    ),
    navCents: book.navCents,
    unitsBefore: book.units,
    price: priceOf(book, input.openingPriceCents),
  };
  const held = cannotDeal(book);
  if (held) {
    return { ...base, issued: [], redeemed: [], navAfterCents: book.navCents, unitsAfter: book.units, holdings, held };
  }
  const { issued, redeemed, inCents, inUnits, afterIn, outCents, outUnits } = deal(input, book, holdings);
  const navAfterCents = afterIn.navCents - outCents;
  const unitsAfter = afterIn.units - outUnits;
  const oldOut = Math.min(outUnits, book.units);
  const crystallisedCents = crystallise ? feeCents : leaversFee(feeCents, oldOut, book.units);
  return {
    ...base,
    crystallisedCents,
    accruedAfterCents: feeCents - crystallisedCents,
    highWaterPrice: keepAccrual(
      markAfter({
        mark: input.fee.highWaterPrice,
        unitsBefore: book.units,
        inCents,
        inUnits,
        oldOut,
        after: { navCents: navAfterCents, units: unitsAfter },
        crystallise,
      }),
      // The share still accrued is in NAV before the fee at the next strike, as the fee's accrual is.
      { navCents: navAfterCents + shareAfterCents, units: unitsAfter },
      feeCents - crystallisedCents,
      input.fee.rateBps,
    ),
    issued,
    redeemed,
    navAfterCents,
    unitsAfter,
    holdings,
  };
}

/**
 * The fee the leavers take with them. Units that were out before the strike leave first: only they paid the fee
 * through the price (units issued at this strike were bought after it), so the leavers' share never exceeds the fee.
 */
function leaversFee(feeCents: number, oldOut: number, unitsBefore: number): number {
  return unitsBefore > 0 ? num(floorDiv(big(feeCents) * big(oldOut), big(unitsBefore))) : 0;
}

/** Issues every contribution at the strike's price, then redeems every cash-out, moving `holdings` as it goes. */
function deal(
  input: { contributions: readonly DealIn[]; cashouts: readonly DealOut[]; openingPriceCents: number },
  book: Book,
  holdings: Map<string, number>,
) {
  const issued = input.contributions.map((c): Dealt => {
    const units = unitsFor(c.cents, book, input.openingPriceCents);
    holdings.set(c.memberId, (holdings.get(c.memberId) ?? 0) + units);
    return { id: c.id, memberId: c.memberId, units, cents: c.cents };
  });
  const inCents = issued.reduce((a, d) => a + d.cents, 0);
  const inUnits = issued.reduce((a, d) => a + d.units, 0);
  const afterIn: Book = { navCents: book.navCents + inCents, units: book.units + inUnits };
  const redeemed = input.cashouts.map((c): Dealt => {
    // At the strike's price; at the opening strike (no units before it) at the price the contributions paid.
    const r = redemptionFor(c.ask, holdings.get(c.memberId) ?? 0, book.units === 0 ? afterIn : book);
    holdings.set(c.memberId, (holdings.get(c.memberId) ?? 0) - r.units);
    return { id: c.id, memberId: c.memberId, ...r };
  });
  const outCents = redeemed.reduce((a, d) => a + d.cents, 0);
  const outUnits = redeemed.reduce((a, d) => a + d.units, 0);
  return { issued, redeemed, inCents, inUnits, afterIn, outCents, outUnits };
}

/**
 * The mark after dealing: as an average over units, the value of the mark (units × mark) loses the leavers' share
 * and gains the money that came in (rounded up: a higher mark charges less fee). The first units dealt set it at
 * their price; a crystallisation raises it to the price after the strike; with no units out it is unset.
 */
function markAfter(m: {
  mark: number;
  unitsBefore: number;
  inCents: number;
  inUnits: number;
  /** Of the units redeemed, those out before the strike (the rest were issued at it). */
  oldOut: number;
  after: Book;
  crystallise: boolean;
}): number {
  if (m.after.units <= 0) return 0;
  const priceAfter = priceOf(m.after, 0);
  if (m.mark === 0 || m.unitsBefore === 0) return priceAfter;
  // The money that came in keeps the share of it its units still out hold.
  const newKept = m.after.units - (m.unitsBefore - m.oldOut);
  const inValue =
    m.inUnits > 0 ? floorDiv(big(m.inCents) * big(UNIT_SCALE) * big(PRICE_SCALE) * big(newKept), big(m.inUnits)) : 0n;
  const averaged = num(ceilDiv(big(m.mark) * big(m.unitsBefore - m.oldOut) + inValue, big(m.after.units)));
  return m.crystallise ? Math.max(averaged, priceAfter) : averaged;
}

/**
 * The mark nudged, if need be, so the next strike with nothing changed works out the same accrual (decision 1900):
 * the fee is worked out afresh from NAV before it (the book after this strike plus what stays accrued) and the
 * mark, and the averaged mark's rounding could otherwise move it by a cent or two, and NAV and the price with it.
 * Of the marks that give exactly the accrual kept, the one nearest the averaged mark (the highest when it must
 * come down: the least fee later). An unset mark, no units or no fee: left as it is.
 */
function keepAccrual(mark: number, after: Book, accruedCents: number, rateBps: number): number {
  if (mark === 0 || after.units <= 0 || rateBps <= 0) return mark;
  const scale = big(UNIT_SCALE) * big(PRICE_SCALE);
  const gross = big(after.navCents) + big(accruedCents);
  const rate = big(rateBps);
  // The gains (cents) whose fee, rounded down, is exactly the accrual: [least, most].
  const least = accruedCents > 0 ? ceilDiv(big(accruedCents) * 10_000n, rate) : undefined;
  const most = floorDiv((big(accruedCents) + 1n) * 10_000n - 1n, rate);
  // feeAt's mark value is ceil(mark × units / scale); gain = gross − that value.
  const hi = least === undefined ? undefined : floorDiv((gross - least) * scale, big(after.units));
  const lo = floorDiv((gross - most - 1n) * scale, big(after.units)) + 1n;
  let out = big(mark);
  if (out < lo) out = lo;
  if (hi !== undefined && out > hi) out = hi;
  if (out <= 0n || (hi !== undefined && lo > hi)) return mark;
  return num(out);
}

export interface Share {
  memberId: string;
  units: number;
  cents: number;
  /** Whether this member got one of the residual cents. */
  residualCent: boolean;
}

/**
 * NAV shared among members by their units: whole cents below each exact share, then the cents left over one
 * each to the largest fractional parts (ties: the order given, oldest member first). The values sum to NAV.
 */
export function shares(
  members: ReadonlyArray<{ memberId: string; units: number }>,
  book: Book,
): { shares: Share[]; residualCents: number } {
  const total = big(book.units);
  if (total === 0n) {
    return { shares: members.map((m) => ({ ...m, cents: 0, residualCent: false })), residualCents: 0 };
  }
  const exact = members.map((m, i) => {
    const scaled = big(m.units) * big(book.navCents);
    return { i, floor: floorDiv(scaled, total), rem: scaled - floorDiv(scaled, total) * total };
  });
  const floors = exact.reduce((a, e) => a + e.floor, 0n);
  const residual = num(big(book.navCents) - floors);
  const order = [...exact].sort((a, b) => (a.rem === b.rem ? a.i - b.i : a.rem > b.rem ? -1 : 1));
  const extra = new Set(order.slice(0, Math.max(0, residual)).map((e) => e.i));
  return {
    shares: members.map((m, i) => ({
      memberId: m.memberId,
      units: m.units,
      cents: num((exact[i] as { floor: bigint }).floor) + (extra.has(i) ? 1 : 0),
      residualCent: extra.has(i),
    })),
    residualCents: residual,
  };
}

/** Money-weighted figures for one member: value now against money in and out. */
export function memberReturn(m: { valueCents: number; contributedCents: number; cashedOutCents: number }): {
  profitCents: number;
  /** Profit over money contributed, or null before any contribution. */
  returnRatio: number | null;
} {
  const profitCents = m.valueCents + m.cashedOutCents - m.contributedCents;
  return { profitCents, returnRatio: m.contributedCents > 0 ? profitCents / m.contributedCents : null };
}

/**
 * Contributions waiting for their deposit against the `deposit` transactions of their session: the same amount,
 * made no earlier than a day before the contribution was recorded, each deposit to one contribution, oldest first.
 */
export function matchDeposits(
  waiting: ReadonlyArray<{ contributionId: string; amountCents: number; createdAt: number }>,
  deposits: ReadonlyArray<{ id: string; cents: number; at: number }>,
  used: ReadonlySet<string>,
): Array<{ contributionId: string; depositId: string }> {
  const taken = new Set(used);
  const out: Array<{ contributionId: string; depositId: string }> = [];
  for (const c of waiting) {
    const d = deposits.find((t) => !taken.has(t.id) && t.cents === c.amountCents && t.at >= c.createdAt - 86_400_000);
    if (!d) continue;
    taken.add(d.id);
    out.push({ contributionId: c.contributionId, depositId: d.id });
  }
  return out;
}

export type FeePeriod = 'month' | 'quarter' | 'year';

/** The member id a crystallised fee is owed to when no manager is set (/settings fund fee_manager). */
export const FEE_MANAGER_UNSET = 'manager';

/** The fee period a local day (`2026-11-26`) falls in: `2026-11`, `2026-Q4` or `2026`. */
export function feePeriodKey(day: string, period: FeePeriod): string {
  const year = day.slice(0, 4);
  if (period === 'year') return year;
  if (period === 'quarter') return `${year}-Q${Math.floor((Number(day.slice(5, 7)) - 1) / 3) + 1}`;
  return day.slice(0, 7);
}

/** Dealing days: daily at a time, or weekly on a weekday at a time, in the server's time zone. */
export type StrikeSchedule = { every: 'day'; at: string } | { every: 'week'; weekday: number; at: string };

/** The dealing day key of an instant under a schedule (one strike per key), or undefined before the time. */
export function dealingKey(
  schedule: StrikeSchedule,
  local: { day: string; weekday: number; minutes: number },
): string | undefined {
  const [h, m] = schedule.at.split(':').map(Number);
  const due = (h ?? 0) * 60 + (m ?? 0);
  if (local.minutes < due) return undefined;
  if (schedule.every === 'week' && local.weekday !== schedule.weekday) return undefined;
  return local.day;
}

const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/** `daily 18:00` or `weekly mon 18:00` (24-hour time in the server's zone) to a schedule, or a message. */
export function parseSchedule(text: string): StrikeSchedule | { error: string } {
  const m = /^\s*(daily|weekly)\s+(?:(sun|mon|tue|wed|thu|fri|sat)[a-z]*\s+)?([01]?\d|2[0-3]):([0-5]\d)\s*$/i.exec(
    text,
  );
  const hint = "Write `daily 18:00` or `weekly mon 18:00` (24-hour time in the server's time zone).";
  if (!m) return { error: `Not a dealing schedule: "${text}". ${hint}` };
  const at = `${String(m[3]).padStart(2, '0')}:${m[4]}`;
  if (m[1]?.toLowerCase() === 'daily') {
    if (m[2]) return { error: `A daily schedule names no weekday. ${hint}` };
    return { every: 'day', at };
  }
  if (!m[2]) return { error: `A weekly schedule names its weekday. ${hint}` };
  return { every: 'week', weekday: WEEKDAYS.indexOf(m[2].toLowerCase()), at };
}

/** The local day, weekday (0 = Sunday) and minutes past midnight of an instant in a time zone. */
export function localParts(instant: number, zone: string): { day: string; weekday: number; minutes: number } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
  return {
    day: `${parts.year}-${parts.month}-${parts.day}`,
    weekday: WEEKDAYS.indexOf(String(parts.weekday).slice(0, 3).toLowerCase()),
    minutes: Number(parts.hour) * 60 + Number(parts.minute),
  };
}
