/**
 * Where /stats and /leaderboard get their bets: the bet records (repos/bet-records.ts). The one adapter
 * between the records and the analytics.
 */

import { type BetRecord, BetRecordRepo } from '../betting/index.js';
import { BET_STATES, inStates, isSettledStatus } from '../model/bet-states.js';
import type { BotStore } from '../store/index.js';
import { multiCloseOdds } from './clv.js';
import { applyFilter, type BetFact, type BetStatus, type CloseMarket, type FactsFilter, isFairClose } from './facts.js';

const settled = inStates(BET_STATES.settled);

export interface AnalyticsFilter extends FactsFilter {
  /** Only this guild's bets (null: bets made outside a guild). */
  guild?: string | null;
}

export interface AnalyticsSource {
  facts(filter: AnalyticsFilter): Promise<BetFact[]>;
}

/** A bet the gateway holds: placed (open or missing from its history) or settled, with its P&L when settled. */
export function factOf(r: BetRecord): BetFact[] {
  if (r.betId === null || !inStates(BET_STATES.taken)(r)) return [];
  const odds = r.odds ?? r.payload.shownOdds;
  const status: BetStatus = settled(r) && isSettledStatus(r.settledStatus) ? r.settledStatus : 'open';
  // The book's P&L is the truth; without it, what the receipt promised.
  const returnCents =
    status === 'open'
      ? null
      : r.pnlCents !== null
        ? r.stakeCents + r.pnlCents
        : status === 'won'
          ? Math.round(r.stakeCents * odds)
          : status === 'lost'
            ? 0
            : status === 'void'
              ? r.stakeCents
              : null;
  const closeMarket = (r.closeMarket as CloseMarket | null) ?? null;
  const multi = r.payload.kind === 'multi' ? r.payload.multi : undefined;
  const fairAtPlacement = multi?.probability ?? r.payload.edge?.fairProbability ?? null;
  const closeOdds =
    multi && isFairClose(closeMarket) ? multiCloseOdds(odds, fairAtPlacement, closeMarket.probability) : r.closeOdds;
  return [
    {
      betId: r.betId,
      member: r.userId,
      book: r.bookie,
      session: r.sessionId,
      account: r.payload.account ?? null,
      ...(r.fundKey !== undefined ? { fundKey: r.fundKey } : {}),
      epk: r.payload.epk ?? null,
      league: r.payload.league ?? null,
      sport: r.payload.sport,
      placedAt: r.createdAt,
      settledAt: settled(r) ? r.updatedAt : null,
      stakeCents: r.stakeCents,
      oddsTaken: odds,
      status,
      returnCents,
      closeOdds,
      closeMarket,
      fairProbability: fairAtPlacement,
      suggestedCents: r.payload.edge?.suggestedCents ?? null,
      ...(multi ? { multiLegs: multi.legs.length } : {}),
    },
  ];
}

export class BetRecordsSource implements AnalyticsSource {
  readonly #records: BetRecordRepo;
  constructor(store: BotStore) {
    this.#records = new BetRecordRepo(store);
  }

  async facts(filter: AnalyticsFilter): Promise<BetFact[]> {
    const rows = await this.#records.forGuild(filter.guild, ['placed', 'settled', 'missing']);
    return applyFilter(rows.flatMap(factOf), filter);
  }
}

/** The source the commands use. */
export function analyticsSource(ctx: { store: BotStore }): AnalyticsSource {
  return new BetRecordsSource(ctx.store);
}
