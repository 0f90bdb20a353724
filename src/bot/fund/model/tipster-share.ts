/**
 * The tipster share (decision 1923): a share of each tipster's attributed profit above their own high-water mark,
 * accrued at every strike and crystallised at the fee's crystallisations, never paying on gains the fund did not
 * make. Pure: whole cents, products in BigInt, every rounding down (the fund keeps the fraction).
 *
 * - A tipster's **P&L** is the sum of the fund's settled bets credited to them (decision 1920, all time); their
 *   **mark** is the P&L they were last crystallised at (it only moves up). Their **gain** is P&L above the mark.
 * - **The cap:** the shares are paid on at most the fund's own gain above its high-water mark (the gain the
 *   performance fee is worked out on). When the tipsters' gains add up to more, each is paid on its proportional part
 *   of the fund's gain: share = rate × gain × fund's gain / tipsters' gains, rounded down.
 * - **Crystallisation** (the first strike of each fee period) makes every accrual owed and moves each tipster's mark up
 *   to their P&L, whether or not the cap cut their share: a period's gains are settled once.
 */

const big = (n: number) => BigInt(n);
const num = (n: bigint) => Number(n);
const floorDiv = (a: bigint, b: bigint) => {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
};

/** A tipster as the share reads them: their attributed P&L and their high-water mark, in cents. */
export interface TipsterStanding {
  memberId: string;
  pnlCents: number;
  markCents: number;
}

export interface TipsterShareTerms {
  /** The share's rate in basis points (0: off). */
  rateBps: number;
  tipsters: readonly TipsterStanding[];
}

export interface TipsterShareLine extends TipsterStanding {
  /** P&L above the mark (0 at or below it). */
  gainCents: number;
  /** What the share accrues to them at this strike. */
  accruedCents: number;
  /** The mark after the strike: their P&L on a crystallisation (never down), else as it was. */
  markAfterCents: number;
}

export interface TipsterShare {
  rateBps: number;
  lines: TipsterShareLine[];
  /** The tipsters' gains added up. */
  gainsCents: number;
  /** The fund's gain above its high-water mark (0 at or below it): the most the share is ever paid on. */
  fundGainCents: number;
  /** Whether the fund's gain cut the share (the tipsters' gains were more than it). */
  capped: boolean;
  /** The shares added up: a liability in NAV, like the fee's accrual. */
  accruedCents: number;
  /** Of it, what is owed now (all of it on a crystallisation). */
  crystallisedCents: number;
  /** Of it, what stays accrued after the strike. */
  accruedAfterCents: number;
}

/**
 * The share at a strike: each tipster's rate × gain above their mark, cut in proportion when the gains add up to more
 * than the fund's own gain above its mark; on a crystallisation all of it is owed and the marks move up.
 */
export function tipsterShareAt(
  terms: TipsterShareTerms,
  fundGainCents: number,
  opts: { crystallise?: boolean } = {},
): TipsterShare {
  const rate = Math.max(0, terms.rateBps);
  const fundGain = Math.max(0, fundGainCents);
  const gains = terms.tipsters.map((t) => Math.max(0, t.pnlCents - t.markCents));
  const gainsCents = gains.reduce((a, g) => a + g, 0);
  const base = Math.min(gainsCents, fundGain);
  const crystallise = opts.crystallise === true;
  const lines = terms.tipsters.map((t, i): TipsterShareLine => {
    const gainCents = gains[i] ?? 0;
    const accruedCents =
      rate === 0 || gainCents === 0 || base === 0
        ? 0
        : num(floorDiv(big(gainCents) * big(base) * big(rate), big(gainsCents) * 10_000n));
    return {
      ...t,
      gainCents,
      accruedCents,
      markAfterCents: crystallise ? Math.max(t.markCents, t.pnlCents) : t.markCents,
    };
  });
  const accruedCents = lines.reduce((a, l) => a + l.accruedCents, 0);
  return {
    rateBps: rate,
    lines,
    gainsCents,
    fundGainCents: fundGain,
    capped: gainsCents > fundGain,
    accruedCents,
    crystallisedCents: crystallise ? accruedCents : 0,
    accruedAfterCents: crystallise ? 0 : accruedCents,
  };
}

/** The marks a strike left, as the next strike reads them (from the strike's record). */
export interface ShareMarks {
  tipsters: ReadonlyArray<{ memberId: string; markAfterCents: number }>;
}

/**
 * The standings the share is worked out on at a strike: each tipster's P&L against the mark the last strike with the
 * share on left. When the last strike had the share off (or there was none), the share starts now: every mark is the
 * tipster's P&L, so nothing made before it was switched on is ever paid. A tipster new since then starts at 0.
 */
export function standingsOf(pnl: ReadonlyMap<string, number>, previous: ShareMarks | undefined): TipsterStanding[] {
  const marks = new Map((previous?.tipsters ?? []).map((t) => [t.memberId, t.markAfterCents]));
  const members = [...new Set([...marks.keys(), ...pnl.keys()])].sort();
  return members.map((memberId) => {
    const pnlCents = pnl.get(memberId) ?? 0;
    return { memberId, pnlCents, markCents: previous ? (marks.get(memberId) ?? 0) : pnlCents };
  });
}
