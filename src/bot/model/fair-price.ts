/**
 * A fair price for a selection: each book's complete market with its margin removed, then an equal-weight
 * consensus across those books (decision 1720). Pure: the caller hands in the books' markets as read from cards.
 */

/** How a book's margin is taken out of its prices. */
export type MarginMethod = 'multiplicative' | 'power' | 'shin';

export const MARGIN_METHODS: readonly MarginMethod[] = ['multiplicative', 'power', 'shin'];
export const DEFAULT_MARGIN_METHOD: MarginMethod = 'multiplicative';

/** The method's name where a fair price is shown. */
export const METHOD_LABEL: Record<MarginMethod, string> = {
  multiplicative: 'no-vig multiplicative',
  power: 'no-vig power',
  shin: 'no-vig Shin',
};

const TOLERANCE = 1e-12;

/**
 * The root of a decreasing function on [lo, hi] (f(lo) ≥ 0 ≥ f(hi)) by false position with the Illinois step:
 * bracketed like bisection, but some ten evaluations instead of forty (figure 19 times a whole card).
 */
function solve(f: (x: number) => number, lo: number, hi: number): number {
  let a = lo;
  let b = hi;
  let fa = f(a);
  let fb = f(b);
  let side = 0;
  for (let i = 0; i < 100; i++) {
    if (fa === fb) break;
    const x = (a * fb - b * fa) / (fb - fa);
    const fx = f(x);
    if (Math.abs(fx) < TOLERANCE || b - a < TOLERANCE) return x;
    if (fx > 0) {
      a = x;
      fa = fx;
      if (side === 1) fb /= 2;
      side = 1;
    } else {
      b = x;
      fb = fx;
      if (side === -1) fa /= 2;
      side = -1;
    }
  }
  return (a + b) / 2;
}

const sum = (xs: readonly number[]) => xs.reduce((a, x) => a + x, 0);

/** Final normalisation: iterative methods stop within 1e-12 of 1; the fair probabilities sum to 1 exactly enough. */
const normalise = (ps: readonly number[]) => {
  const total = sum(ps);
  return ps.map((p) => p / total);
};

/** Proportional: each implied probability divided by the booksum. */
function multiplicative(implied: readonly number[]): number[] {
  return normalise(implied);
}

/** Power (logarithmic): p_i = π_i^k with k chosen so the p_i sum to 1 (k > 1 when the book has a margin). */
function power(implied: readonly number[]): number[] {
  const f = (k: number) => sum(implied.map((pi) => pi ** k)) - 1;
  let lo = 1;
  let hi = 1;
  // Σπ^k falls as k grows (every π < 1): widen the bracket until it holds the root.
  while (f(hi) > 0 && hi < 1e6) hi *= 2;
  while (f(lo) < 0 && lo > 1e-9) lo /= 2;
  const k = solve(f, lo, hi);
  return normalise(implied.map((pi) => pi ** k));
}

/**
 * Shin (1993): a share z of money from insiders; p_i = (√(z² + 4(1 − z)π_i²/Σπ) − z) / (2(1 − z)), z chosen so
 * the p_i sum to 1. With no margin (Σπ ≤ 1) z is 0 and the answer is the proportional one.
 */
function shin(implied: readonly number[]): number[] {
  const booksum = sum(implied);
  if (booksum <= 1) return multiplicative(implied);
  const pOf = (pi: number, z: number) => (Math.sqrt(z * z + (4 * (1 - z) * pi * pi) / booksum) - z) / (2 * (1 - z));
  // Σp(z) − 1 without allocating: the solver calls it some forty times per market.
  const excess = (z: number) => {
    let total = -1;
    for (const pi of implied) total += pOf(pi, z);
    return total;
  };
  const z = solve(excess, 0, 0.999_999);
  return normalise(implied.map((pi) => pOf(pi, z)));
}

/**
 * The fair probabilities of one book's complete market (every outcome priced), in the order of `odds`.
 * Throws on a price that is not decimal odds above 1: the caller only hands in priced outcomes.
 */
export function removeMargin(odds: readonly number[], method: MarginMethod = DEFAULT_MARGIN_METHOD): number[] {
  if (odds.length < 2) throw new RangeError('a complete market has at least two outcomes');
  for (const o of odds) if (!(Number.isFinite(o) && o > 1)) throw new RangeError(`not decimal odds: ${o}`);
  const implied = odds.map((o) => 1 / o);
  if (method === 'power') return power(implied);
  if (method === 'shin') return shin(implied);
  return multiplicative(implied);
}

/** One book's prices for the outcomes of one market: outcome key → decimal odds (absent: not priced there). */
export interface BookMarket {
  bookie: string;
  prices: ReadonlyMap<string, number>;
}

export type FairPrice =
  | {
      kind: 'fair';
      /** Consensus fair probability of the selection. */
      probability: number;
      /** 1 / probability. */
      odds: number;
      method: MarginMethod;
      /** The books whose complete markets went into it. */
      books: string[];
    }
  | { kind: 'no_complete_market'; method: MarginMethod };

/**
 * The fair price of every outcome of one market from every book that prices all of `outcomes` (a complete market),
 * each book's margin removed by `method`, averaged with equal weights. No complete market at any book: every outcome
 * says so, never a guess.
 */
export function consensusMarket(input: {
  markets: readonly BookMarket[];
  /** Every outcome of the market (the union across books); at least two. */
  outcomes: readonly string[];
  method?: MarginMethod;
}): Map<string, FairPrice> {
  const method = input.method ?? DEFAULT_MARGIN_METHOD;
  const sums = input.outcomes.map(() => 0);
  const books: string[] = [];
  if (input.outcomes.length >= 2) {
    for (const m of input.markets) {
      const odds = input.outcomes.map((o) => m.prices.get(o));
      if (!odds.every((o): o is number => typeof o === 'number' && Number.isFinite(o) && o > 1)) continue;
      removeMargin(odds, method).forEach((p, i) => {
        sums[i] = (sums[i] as number) + p;
      });
      books.push(m.bookie);
    }
  }
  return new Map(
    input.outcomes.map((o, i): [string, FairPrice] => {
      if (books.length === 0) return [o, { kind: 'no_complete_market', method }];
      const probability = (sums[i] as number) / books.length;
      return [o, { kind: 'fair', probability, odds: 1 / probability, method, books }];
    }),
  );
}

/** One selection's fair price: consensusMarket for its market, read at the selection. */
export function consensusFair(input: {
  markets: readonly BookMarket[];
  outcomes: readonly string[];
  selection: string;
  method?: MarginMethod;
}): FairPrice {
  const method = input.method ?? DEFAULT_MARGIN_METHOD;
  return consensusMarket(input).get(input.selection) ?? { kind: 'no_complete_market', method };
}

/** The edge of a price against a fair probability: p·odds − 1 (0.024 is +2.4 %). */
export const edgeOf = (probability: number, odds: number): number => probability * odds - 1;
