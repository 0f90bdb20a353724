import { type ShareCap, shareCapText } from './bank-caps.js';
import { centsFromDollars, formatMoney, parseCents } from './money.js';
import { acceptableFloor, formatOdds } from './odds.js';
import type { MultiSlipInfo, RacingLeg } from './racing-bet.js';

/** Everything a slip needs to be confirmed later, by anyone's process: stored as JSON. */
export interface SlipPayload {
  epk: string;
  sport: string;
  /** The event's league key (e.g. nfl), when the listing names it: account health reads limits per league. */
  league?: string;
  eventName: string;
  bookie: string;
  sessionId: string;
  /** The session's account user name at its book, as members know it (ids stay for /sessions and exports). */
  account?: string;
  /** Who approved a proposed bet (member ids, in order), set at its last approval for the receipt. */
  approvedBy?: string[];
  marketKey: string;
  marketLabel: string;
  selectionLabel: string;
  /** The selection as the book names it (its transactions use this text); absent on older slips. */
  selectionName?: string;
  /** The card row's line (handicap or total; null when it has none): the receipt checks the placed one against it. */
  line?: number | null;
  marketRef: string;
  /** When the event goes off (epoch ms), for the closing-line capture; absent on older slips. */
  startsAt?: number;
  /** The stake in whole cents (older stored slips have only `stake`, in dollars: see slipFromStored). */
  stakeCents: number;
  shownOdds: number;
  minOdds?: number;
  /** The event's start (ISO 8601): shown on the slip and receipt as a Discord timestamp. */
  startTime?: string;
  /** Who made the slip: named on the receipt, which otherwise may not say whose bet it is. */
  userId?: string;
  /** What is bet: a sports selection by market_ref (absent on older slips), a racing runner, or a promo card. */
  kind?: SlipKind;
  /** Racing slips: the race and runner as place_bet names them (eventName is "Track R3", marketKey win|place). */
  racing?: RacingLeg;
  /** Same-race multi slips: the race and legs (eventName is "Track R3", marketKey srm). */
  multi?: MultiSlipInfo;
  /** Stack slips: the multis on one race placed in one stacked_srm call (stakeCents is their sum; decision 2010). */
  stack?: StackedMulti[];
  /** A bet record of a stack: which multi of which stack slip it is (its slip_id is the slip's, `#k` after the first). */
  stackOf?: StackPlace;
  /** Promo slips: the account promo placed by id through place_promo. */
  promo?: { promoId: number; promoLabel: string };
  /** Spend a bonus token worth the stake (racing): checked against the session's tokens when the slip is made. */
  useBonusBet?: boolean;
  /** Set when /bet chose the book itself (no bookie given): why this book, shown on the slip. */
  route?: PriceRoute;
  /** Set when the member picked a book whose account health routing would have left out (shown on the slip). */
  accountWarning?: string;
  /** The bank (cents) the slip's share caps were worked out from: Confirm keeps to it (decision 1723). */
  capBankCents?: number;
  /**
   * Set when the server has a fund and the slip's account is not one of its own: the bet is not the fund's (not
   * valued in its NAV) and is sized without the fund's bank (decision 1910). Shown on the slip.
   */
  outsideFund?: boolean;
  /** The fair price, edge and suggested stake when the slip was made (sports slips; shown and kept on the record). */
  edge?: SlipEdge;
}

/** One multi of a stack slip: its race and legs as a multi slip keeps them, its own stake, floor and edge. */
export interface StackedMulti {
  multi: MultiSlipInfo;
  /** Whole cents. */
  stakeCents: number;
  /** Sent as the multi's target_odds: below it the book refuses the whole stack before placing any. */
  minOdds?: number;
  edge?: SlipEdge;
  /** Staked with a bonus token worth exactly stakeCents (use_bonus_bet), not the syndicate's cash. */
  useBonusBet?: boolean;
}

/** Where a stack's bet record sits: the stack slip, its 1-based place in the stack, and how many the stack holds. */
export interface StackPlace {
  slipId: string;
  index: number;
  count: number;
}

/** What the slip says about its price against the fair one (model/fair-price.ts) and the stake Kelly suggests. */
export interface SlipEdge {
  method: 'multiplicative' | 'power' | 'shin';
  /** Absent when no book had a complete market. */
  fairOdds?: number;
  fairProbability?: number;
  /** How many books' complete markets went into the fair price. */
  books: number;
  /** p·odds − 1 at the slip's shown price. */
  edge?: number;
  /** Fractional Kelly of the bank, cents; absent when no bank is set. */
  suggestedCents?: number;
  kellyFraction?: number;
}

/** Why a slip went to its book: the books priced (best first, the slip's own book first) and those left out. */
export interface PriceRoute {
  priced: Array<{ book: string; price: number }>;
  leftOut: Array<{ book: string; why: string }>;
}

export type SlipKind = 'sports' | 'racing' | 'promo' | 'multi' | 'stack';

export type { RacingLeg } from './racing-bet.js';

export const slipKind = (p: SlipPayload): SlipKind => p.kind ?? 'sports';

/** The command a member runs to make a slip of this kind again (named in refusals and expiries). */
const SLIP_COMMAND = {
  sports: '/bet',
  racing: '/bet-racing',
  promo: '/promos',
  multi: '/multi',
  stack: '/multi (then "Add another multi on this race")',
} as const;

export const slipCommand = (p: SlipPayload): string => SLIP_COMMAND[slipKind(p)];

/** A stake as stored: a record written before stakes were kept in cents has `stake` in dollars instead. */
export interface StoredStake {
  stakeCents?: number;
  stake?: number;
}

/** A stored stake in whole cents: `stakeCents`, or an older record's dollars read once (decision 1931). */
export const storedStakeCents = (r: StoredStake): number => r.stakeCents ?? centsFromDollars(r.stake ?? 0);

/** A slip payload as stored (see StoredStake). */
export type StoredSlipPayload = Omit<SlipPayload, 'stakeCents'> & StoredStake;

/**
 * A stored slip payload (a slip, a bet record's copy, a job's context) in the current shape: an older one's dollar
 * `stake` read once into whole cents, as settings are (decision 1931), and the dollars dropped.
 */
export function slipFromStored(stored: StoredSlipPayload): SlipPayload {
  const { stake: _dollars, stakeCents: _cents, ...slip } = stored;
  return { ...slip, stakeCents: storedStakeCents(stored) };
}

export interface StakeLimits {
  perBetCents: number;
  perDayCents: number;
  /** Set when a share of the bank binds below the dollar limit: the refusal names both. */
  shares?: { perBet?: ShareCap; perDay?: ShareCap };
}

export type RuleResult = { ok: true } | { ok: false; message: string };

const NOT_WHOLE_CENTS = 'The stake must be dollars and whole cents, with at most two decimals, e.g. 10 or 12.50.';

/**
 * A stake typed as a Discord number option (dollars), read once into whole cents by its decimal form: 1.1 is 110
 * cents exactly, while 1e-9 or 10.000000001 are refused, not rounded; a whole number of dollars too long for a typed
 * amount (1e9) is still its cents, for the per-bet limit to refuse. A form's text is read by readCents instead.
 */
export function readStakeOption(dollars: number): { ok: true; cents: number } | { ok: false; message: string } {
  if (Number.isFinite(dollars) && dollars < 0) {
    return { ok: false, message: `The stake ${dollars} is negative. Enter an amount such as 10 or 12.50.` };
  }
  const cents = parseCents(dollars) ?? (Number.isSafeInteger(dollars) ? dollars * 100 : undefined);
  if (cents === undefined) {
    return { ok: false, message: NOT_WHOLE_CENTS };
  }
  return { ok: true, cents };
}

/** A stake in whole cents against the per-bet limits (the lower of the dollar limit and the share of the bank). */
export function checkStake(stakeCents: number, limits: StakeLimits): RuleResult {
  if (!Number.isInteger(stakeCents)) return { ok: false, message: NOT_WHOLE_CENTS };
  if (stakeCents > limits.perBetCents) return overPerBet(stakeCents, limits);
  if (stakeCents <= 0) {
    return { ok: false, message: 'The stake must be more than $0. Enter an amount such as 10 or 12.50.' };
  }
  return { ok: true };
}

/** A stake above the per-bet limit: the share of the bank when that is what binds, else the dollar limit. */
function overPerBet(stakeCents: number, limits: StakeLimits): RuleResult {
  const shown = formatMoney(stakeCents);
  const share = limits.shares?.perBet;
  if (share) {
    return {
      ok: false,
      message: `${shown} is above ${shareCapText(share)}. Lower the stake, or ask an admin to change it with /settings limits.`,
    };
  }
  return {
    ok: false,
    message: `The stake ${shown} is above this server's per-bet limit of ${formatMoney(limits.perBetCents)}. Lower it, or ask an admin to change it with /settings.`,
  };
}

/**
 * Whether a stake still fits today's limit given what is already staked (all in whole cents): checked before a
 * slip is posted, so a member hears it at once instead of at Confirm (Confirm still reserves, the source of truth
 * for races).
 */
export function checkDailyRoom(
  stakeCents: number,
  usedCents: number,
  perDayCents: number,
  share?: ShareCap,
): RuleResult {
  if (!Number.isInteger(stakeCents) || stakeCents <= 0) return { ok: true }; // checkStake says what is wrong with it
  if (usedCents + stakeCents <= perDayCents) return { ok: true };
  const left = formatMoney(Math.max(0, perDayCents - usedCents));
  const limit = share ? shareCapText(share) : formatMoney(perDayCents);
  return {
    ok: false,
    message: `A ${formatMoney(stakeCents)} bet would take you past today's limit of ${limit} (already staked ${formatMoney(usedCents)}; ${left} left). Try a smaller stake or tomorrow.`,
  };
}

export function checkMinOdds(minOdds: number | undefined, shown: number): RuleResult {
  if (minOdds === undefined) return { ok: true };
  if (!Number.isFinite(minOdds) || minOdds < 1.01) {
    return { ok: false, message: 'min_odds must be decimal odds of at least 1.01, e.g. 1.80.' };
  }
  if (minOdds > shown) {
    return {
      ok: false,
      message: `The live price ${formatOdds(shown)} is already below your min_odds ${formatOdds(minOdds)}. Lower min_odds or pick another selection.`,
    };
  }
  return { ok: true };
}

export type PriceDecision = { ok: true; floor: number } | { ok: false; floor: number; message: string };

/** At Confirm: is the live price still acceptable for what the user saw? */
export function decideOnLivePrice(slip: SlipPayload, live: number, tolerance: number): PriceDecision {
  const floor = acceptableFloor(slip.shownOdds, tolerance, slip.minOdds);
  if (live + 1e-9 >= floor) return { ok: true, floor };
  const why =
    slip.minOdds !== undefined && live < slip.minOdds
      ? `below your min_odds ${formatOdds(slip.minOdds)}`
      : `more than the allowed ${Math.round(tolerance * 100)} % below the ${formatOdds(slip.shownOdds)} you were shown`;
  return {
    ok: false,
    floor,
    message: `Not placed: the price moved to ${formatOdds(live)}, ${why}. ${
      slipKind(slip) === 'sports'
        ? 'Bet again at the new price with the button below, or run /bet again.'
        : 'Make a new slip if you still want it at the new price.'
    }`,
  };
}

export function isExpired(expiresAt: number, now: number): boolean {
  return now >= expiresAt;
}

/** An account as the desk names it: `bookie/username`. */
export const accountName = (a: { bookie: string; username: string }) => `${a.bookie}/${a.username}`;
