/**
 * What a same-race multi is worth (decision 1975). Pure: the caller hands in each book's win prices of the race.
 *
 * Model. Each book's win market has its margin taken out (model/fair-price.ts, the server's method) and the books
 * are averaged with equal weights: a win chance per runner, summing to 1. Finishing orders follow Harville: the
 * winner is drawn by the win chances, each next place among the runners left in proportion to their win chances.
 * A multi's legs are one race's events, not independent (if A wins, B cannot), so its chance is the sum of the
 * Harville chances of every finishing order (over the places the legs need) in which every leg comes true.
 */

import { consensusMarket, DEFAULT_MARGIN_METHOD, type MarginMethod } from './fair-price.js';

/** Where a leg's runner must finish: first, or within the first 2, 3 or 4 (the spec's positions). */
export type LegPosition = 'win' | 'top2' | 'top3' | 'top4';

export const LEG_POSITIONS: readonly LegPosition[] = ['win', 'top2', 'top3', 'top4'];

/** The places a position allows. */
export const WITHIN: Record<LegPosition, number> = { win: 1, top2: 2, top3: 3, top4: 4 };

/** A position in a member's words: "win", "top 3". */
export const positionWords = (p: LegPosition): string => (p === 'win' ? 'win' : `top ${WITHIN[p]}`);

/** A position as typed or chosen: win, top2/top 2/2nd, … Undefined: not one. */
export function readPosition(text: string): LegPosition | undefined {
  const t = text.trim().toLowerCase().replace(/\s+/g, '');
  if (t === 'win' || t === '1st') return 'win';
  const m = /^(?:top([234])|([234])(?:nd|rd|th))$/.exec(t);
  const n = m?.[1] ?? m?.[2];
  return n ? (`top${n}` as LegPosition) : undefined;
}

/** A leg as the model reads it: the runner's index in the chances and the places it may finish within. */
export interface ModelLeg {
  runner: number;
  within: number;
}

/**
 * The Harville chance that every leg comes true: a sum over finishing orders, cut short as soon as every leg's
 * runner has finished within its places (the rest of the order no longer matters) or one leg can no longer.
 * `chances` are win chances summing to 1; a leg's runner appears once.
 */
export function harvilleJoint(chances: readonly number[], legs: readonly ModelLeg[]): number {
  if (legs.length === 0) return 1;
  const runners = new Set(legs.map((l) => l.runner));
  if (runners.size !== legs.length) throw new RangeError('a runner appears in two legs');
  for (const l of legs) {
    if (!(l.runner >= 0 && l.runner < chances.length)) throw new RangeError(`no runner ${l.runner}`);
  }
  const placed = new Array<boolean>(chances.length).fill(false);
  const walk = (place: number, left: number, done: number): number => {
    // Every leg due by this place must have its runner placed already.
    for (const l of legs) if (l.within === place - 1 && !placed[l.runner]) return 0;
    if (done === legs.length) return 1;
    if (place > chances.length || left <= 0) return 0;
    let total = 0;
    for (let i = 0; i < chances.length; i++) {
      const p = chances[i] as number;
      if (placed[i] || p <= 0) continue;
      placed[i] = true;
      const isLeg = runners.has(i);
      total += (p / left) * walk(place + 1, left - p, done + (isLeg ? 1 : 0));
      placed[i] = false;
    }
    return total;
  };
  return walk(
    1,
    chances.reduce((a, p) => a + p, 0),
    0,
  );
}

/** One book's win prices of the race: runner name → decimal odds. */
export interface BookWinPrices {
  bookie: string;
  win: ReadonlyMap<string, number>;
}

/** A multi's legs by runner name as the books give it (matched loosely) and position. */
export interface NamedLeg {
  runner: string;
  position: LegPosition;
}

export interface LegFair {
  runner: string;
  position: LegPosition;
  /** The leg alone: the Harville chance its runner finishes within its places. */
  probability: number;
}

export type MultiFair =
  | {
      kind: 'fair';
      /** The chance every leg comes true together. */
      probability: number;
      /** 1 / probability. */
      odds: number;
      legs: LegFair[];
      method: MarginMethod;
      /** The books whose complete win markets went into the chances. */
      books: string[];
    }
  | { kind: 'impossible'; legs: LegFair[]; method: MarginMethod; books: string[] }
  | { kind: 'no_complete_market'; method: MarginMethod };

const loose = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '');

/**
 * The multi's fair chance and each leg's own, from every book that priced every runner of the race to win (a
 * complete market), each book's margin removed by `method`, averaged with equal weights.
 */
export function multiFair(input: {
  books: readonly BookWinPrices[];
  legs: readonly NamedLeg[];
  method?: MarginMethod;
}): MultiFair {
  const method = input.method ?? DEFAULT_MARGIN_METHOD;
  // The field is the union of runners the books name: a book that misses one is not complete.
  const field = [...new Set(input.books.flatMap((b) => [...b.win.keys()].map(loose)))];
  const markets = input.books.map((b) => ({
    bookie: b.bookie,
    prices: new Map([...b.win].map(([runner, odds]) => [loose(runner), odds] as const)),
  }));
  const fair = consensusMarket({ markets, outcomes: field, method });
  const first = fair.get(field[0] ?? '');
  if (first?.kind !== 'fair') return { kind: 'no_complete_market', method };
  const chances = field.map((r) => {
    const f = fair.get(r);
    return f?.kind === 'fair' ? f.probability : 0;
  });
  const modelLegs = input.legs.map((l) => ({ runner: field.indexOf(loose(l.runner)), within: WITHIN[l.position] }));
  if (modelLegs.some((l) => l.runner < 0)) return { kind: 'no_complete_market', method };
  const legs = input.legs.map((l, i) => ({
    runner: l.runner,
    position: l.position,
    probability: harvilleJoint(chances, [modelLegs[i] as ModelLeg]),
  }));
  const probability = harvilleJoint(chances, modelLegs);
  if (!(probability > 1e-12)) return { kind: 'impossible', legs, method, books: first.books };
  return { kind: 'fair', probability, odds: 1 / probability, legs, method, books: first.books };
}

/** The book's margin on a multi at `odds`: its implied chance over the fair one, less 1 (0.25 is 25 %). */
export const multiMargin = (probability: number, odds: number): number => 1 / (odds * probability) - 1;
