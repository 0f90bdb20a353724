/**
 * Where /stats and /leaderboard get their bets. The one adapter between the bet records and the analytics:
 * re-point analyticsSource() when the records move, nothing else changes.
 */

import type { BotContext } from '../context.js';
import type { BotStore } from '../store.js';
import { applyFilter, type BetFact, type BetStatus, type FactsFilter } from './facts.js';

export interface AnalyticsFilter extends FactsFilter {
  /** Only this guild's bets (null: bets made outside a guild). */
  guild?: string | null;
}

export interface AnalyticsSource {
  facts(filter: AnalyticsFilter): Promise<BetFact[]>;
}

const STATUSES = new Set<BetStatus>(['won', 'lost', 'void', 'cashed_out']);

interface BetRow extends Record<string, unknown> {
  bet_id: string;
  session_id: string;
  user_id: string | null;
  detail: string;
  state: string;
  placed_at: number;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * Today's `bets` table: detail JSON carries odds, stake (dollars), bookie and sport; state is 'open' or
 * 'settled:<status>'. It holds no return and no close, so a win returns stake × odds (what the receipt
 * promised), a void its stake, a cash-out an unknown amount, and no bet has a close yet.
 */
export class BetsTableSource implements AnalyticsSource {
  constructor(private readonly store: BotStore) {}

  async facts(filter: AnalyticsFilter): Promise<BetFact[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.guild !== undefined) {
      where.push(filter.guild === null ? 'guild_id IS NULL' : 'guild_id = ?');
      if (filter.guild !== null) params.push(filter.guild);
    }
    if (filter.member !== undefined) {
      where.push('user_id = ?');
      params.push(filter.member);
    }
    if (filter.since !== undefined) {
      where.push('placed_at >= ?');
      params.push(filter.since);
    }
    const rows = await this.store.query<BetRow>(
      `SELECT bet_id, session_id, user_id, detail, state, placed_at FROM bets${where.length ? ` WHERE ${where.join(' AND ')}` : ''}`,
      ...params,
    );
    return applyFilter(rows.flatMap(toFact), filter);
  }
}

function toFact(r: BetRow): BetFact[] {
  let detail: Record<string, unknown>;
  try {
    detail = JSON.parse(r.detail) as Record<string, unknown>;
  } catch {
    return [];
  }
  const stake = num(detail.stake);
  const odds = num(detail.odds);
  if (stake === null || odds === null) return [];
  const settled = r.state.startsWith('settled:') ? (r.state.slice('settled:'.length) as BetStatus) : 'open';
  const status: BetStatus = STATUSES.has(settled) ? settled : 'open';
  const stakeCents = Math.round(stake * 100);
  const returnCents =
    status === 'won' ? Math.round(stakeCents * odds) : status === 'lost' ? 0 : status === 'void' ? stakeCents : null;
  return [
    {
      betId: r.bet_id,
      member: r.user_id ?? '',
      book: typeof detail.bookie === 'string' ? detail.bookie : '',
      session: r.session_id,
      sport: typeof detail.sport === 'string' ? detail.sport : '',
      placedAt: Number(r.placed_at),
      stakeCents,
      oddsTaken: odds,
      status,
      returnCents,
      closeOdds: null,
      closeMarket: null,
    },
  ];
}

/** The source the commands use. */
export function analyticsSource(ctx: Pick<BotContext, 'store'>): AnalyticsSource {
  return new BetsTableSource(ctx.store);
}
