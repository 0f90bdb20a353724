/** Profit and loss of a set of bets, in whole cents and in units. */

import type { BetFact } from './facts.js';

export interface PnlOptions {
  /** The bank the money came from; ROI on bank and drawdown as a share of it need it. */
  bankCents?: number | null;
  /** One unit in cents (e.g. 1 % of the bank); units need it. */
  unitCents?: number | null;
}

export interface PnlSummary {
  bets: number;
  open: number;
  won: number;
  lost: number;
  voided: number;
  cashedOut: number;
  /** Settled bets with no known return: counted here, left out of the money. */
  unknownReturn: number;
  /** Stakes of settled bets that were not void. */
  turnoverCents: number;
  returnCents: number;
  profitCents: number;
  /** Profit per dollar staked. */
  yield: number | null;
  roiOnBank: number | null;
  /** Won among bets decided by the result (won + lost); cash-outs and voids are neither. */
  strikeRate: number | null;
  /** Largest fall of cumulative profit from a running peak (0 at the start counts as a peak). */
  maxDrawdownCents: number;
  /** That fall as a share of the bank plus the peak it fell from. */
  maxDrawdownOfBank: number | null;
  units: { turnover: number; profit: number; maxDrawdown: number } | null;
}

/** A settled bet's P&L in cents: its return less its stake (a void returns its stake: 0). */
export function betPnlCents(b: BetFact): number {
  return b.status === 'void' ? 0 : (b.returnCents ?? 0) - b.stakeCents;
}

/** Settled, not void, with a known return: the bets that move money. */
export function moneyBets(facts: readonly BetFact[]): BetFact[] {
  return facts.filter(
    (b) => b.status !== 'open' && b.status !== 'void' && b.returnCents !== null && Number.isFinite(b.returnCents),
  );
}

/** The order money moved in: settlement time, else placement time; ties by placement then id. */
export function bySettlement(a: BetFact, b: BetFact): number {
  const ta = a.settledAt ?? a.placedAt;
  const tb = b.settledAt ?? b.placedAt;
  return ta - tb || a.placedAt - b.placedAt || (a.betId < b.betId ? -1 : a.betId > b.betId ? 1 : 0);
}

/** Largest peak-to-trough fall of a running total that starts at 0, and the peak it fell from. */
export function maxDrawdown(steps: Iterable<number>): { drawdown: number; peak: number } {
  let total = 0;
  let peak = 0;
  let worst = { drawdown: 0, peak: 0 };
  for (const s of steps) {
    total += s;
    if (total > peak) peak = total;
    if (peak - total > worst.drawdown) worst = { drawdown: peak - total, peak };
  }
  return worst;
}

export function pnl(facts: readonly BetFact[], opts: PnlOptions = {}): PnlSummary {
  const count = (s: BetFact['status']) => facts.filter((b) => b.status === s).length;
  const money = moneyBets(facts).sort(bySettlement);
  const turnoverCents = money.reduce((s, b) => s + b.stakeCents, 0);
  const returnCents = money.reduce((s, b) => s + (b.returnCents ?? 0), 0);
  const profitCents = returnCents - turnoverCents;
  const won = count('won');
  const lost = count('lost');
  const dd = maxDrawdown(money.map((b) => (b.returnCents ?? 0) - b.stakeCents));
  const bank = opts.bankCents && opts.bankCents > 0 ? opts.bankCents : null;
  const unit = opts.unitCents && opts.unitCents > 0 ? opts.unitCents : null;
  return {
    bets: facts.length,
    open: count('open'),
    won,
    lost,
    voided: count('void'),
    cashedOut: count('cashed_out'),
    unknownReturn: facts.filter((b) => b.status !== 'open' && b.status !== 'void' && b.returnCents === null).length,
    turnoverCents,
    returnCents,
    profitCents,
    yield: turnoverCents > 0 ? profitCents / turnoverCents : null,
    roiOnBank: bank ? profitCents / bank : null,
    strikeRate: won + lost > 0 ? won / (won + lost) : null,
    maxDrawdownCents: dd.drawdown,
    maxDrawdownOfBank: bank ? dd.drawdown / (bank + dd.peak) : null,
    units: unit
      ? { turnover: turnoverCents / unit, profit: profitCents / unit, maxDrawdown: dd.drawdown / unit }
      : null,
  };
}
