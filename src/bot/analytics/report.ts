/** One call for a set of bets' CLV and P&L, whole or grouped per member, book, session, sport or period. */

import { tz } from '@date-fns/tz';
import { format } from 'date-fns/format';
import { startOfISOWeek } from 'date-fns/startOfISOWeek';
import { type ClvSummary, clvSummary } from './clv-summary.js';
import type { BetFact } from './facts.js';
import { type PnlOptions, type PnlSummary, pnl } from './pnl.js';

export interface Report {
  clv: ClvSummary;
  pnl: PnlSummary;
}

export function report(facts: readonly BetFact[], opts: PnlOptions = {}): Report {
  return { clv: clvSummary(facts), pnl: pnl(facts, opts) };
}

export type Dimension = 'member' | 'book' | 'session' | 'sport' | 'day' | 'week' | 'month';

/** The group a bet falls in; periods are calendar days, ISO weeks (by their Monday) or months in `zone`. */
export function groupKey(b: BetFact, dim: Dimension, zone = 'UTC'): string {
  switch (dim) {
    case 'member':
      return b.member;
    case 'book':
      return b.book;
    case 'session':
      return b.session;
    case 'sport':
      return b.sport;
    case 'day':
      return format(b.placedAt, 'yyyy-MM-dd', { in: tz(zone) });
    case 'week':
      return format(startOfISOWeek(b.placedAt, { in: tz(zone) }), 'yyyy-MM-dd', { in: tz(zone) });
    case 'month':
      return format(b.placedAt, 'yyyy-MM', { in: tz(zone) });
  }
}

export interface GroupReport extends Report {
  key: string;
}

/** Reports per group, in key order (periods come out in time order). */
export function reportBy(
  facts: readonly BetFact[],
  dim: Dimension,
  opts: PnlOptions & { zone?: string } = {},
): GroupReport[] {
  const groups = new Map<string, BetFact[]>();
  for (const b of facts) {
    const k = groupKey(b, dim, opts.zone);
    const g = groups.get(k);
    if (g) g.push(b);
    else groups.set(k, [b]);
  }
  return [...groups.keys()].sort().map((key) => ({ key, ...report(groups.get(key) as BetFact[], opts) }));
}
