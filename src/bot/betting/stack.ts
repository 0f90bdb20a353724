/**
 * Stacks: several same-race multis on one race placed in one `POST /v3/stacked_srm` call (decision 2010). A stack
 * slip holds the multis; its Confirm claims one bet record per multi in one transaction (bet-records.ts), and each
 * record is a multi's as a /multi slip's would be, so settlement, the reconciler and the ledger treat it as one.
 */

import type { StackedSrmRequest, StackedSrmResult } from '../../gateway/index.js';
import { centsFromDollars } from '../model/money.js';
import type { RaceKey } from '../model/racing-bet.js';
import type { SlipPayload, StackedMulti } from '../model/slip-rules.js';
import { legsText, NO_FLOOR } from './multi-prices.js';

/** The event key a race's bets carry: every bet on the race shares the race's cap. */
export const raceEventKey = (r: RaceKey): string => `racing:${r.track}/${r.raceNum}/${r.raceType}/${r.date}`;

/** The multis a slip holds for a stack: a multi slip's one, a stack's all; undefined for any other slip. */
export function stackMultisOf(p: SlipPayload): StackedMulti[] | undefined {
  if (p.kind === 'stack' && p.stack) return p.stack;
  if (p.kind !== 'multi' || !p.multi) return undefined;
  return [
    {
      multi: p.multi,
      stakeCents: p.stakeCents,
      ...(p.minOdds === undefined ? {} : { minOdds: p.minOdds }),
      ...(p.edge ? { edge: p.edge } : {}),
      ...(p.useBonusBet ? { useBonusBet: true } : {}),
    },
  ];
}

/** A stack slip's payload from the slip it grew from and its multis: the race's, its stake the multis' sum. */
export function stackPayload(base: SlipPayload, multis: StackedMulti[]): SlipPayload {
  const {
    multi: _multi,
    minOdds: _minOdds,
    edge: _edge,
    stackOf: _stackOf,
    approvedBy: _approvedBy,
    capBankCents: _capBankCents,
    outsideFund: _outsideFund,
    useBonusBet: _useBonusBet,
    ...rest
  } = base;
  const text = multis.map((m, i) => `${i + 1}) ${legsText(m.multi)}`).join(' · ');
  return {
    ...rest,
    kind: 'stack',
    stack: multis,
    marketKey: 'srm',
    marketLabel: `Stack of ${multis.length} same-race multis`,
    selectionLabel: text,
    selectionName: text,
    stakeCents: multis.reduce((a, m) => a + m.stakeCents, 0),
    shownOdds: NO_FLOOR,
    // The fund's gate reads no cash for a bonus slip: only a stack of bonus multis alone is one.
    ...(multis.every((m) => m.useBonusBet) ? { useBonusBet: true } : {}),
  };
}

/**
 * Each multi of a stack slip as its own bet record's payload: a multi slip's payload (so every reader of a multi's
 * record reads it as one) that names its place in the stack.
 */
export function stackMembers(p: SlipPayload, slipId: string): SlipPayload[] {
  const multis = p.stack ?? [];
  const { stack: _stack, ...base } = p;
  return multis.map((m, i) => {
    const text = legsText(m.multi);
    const { minOdds: _minOdds, edge: _edge, useBonusBet: _bonus, ...rest } = base;
    return {
      ...rest,
      kind: 'multi',
      multi: m.multi,
      marketLabel: `Same-race multi (${m.multi.legs.length} legs), ${i + 1} of a stack of ${multis.length}`,
      selectionLabel: text,
      selectionName: text,
      stakeCents: m.stakeCents,
      shownOdds: m.minOdds ?? NO_FLOOR,
      ...(m.minOdds === undefined ? {} : { minOdds: m.minOdds }),
      ...(m.edge ? { edge: m.edge } : {}),
      ...(m.useBonusBet ? { useBonusBet: true } : {}),
      stackOf: { slipId, index: i + 1, count: multis.length },
    };
  });
}

/** The bet record slip id of the stack's k-th multi (1-based): the slip's own id for the first, so a claim is seen. */
export const stackRecordSlipId = (slipId: string, index: number): string =>
  index === 1 ? slipId : `${slipId}#${index}`;

/** The stacked_srm body of a stack slip: every multi with its stake, legs and floor, in the slip's order. */
export function stackRequest(
  p: SlipPayload,
  stakesCents: readonly number[],
  callbackUrl: string | undefined,
): StackedSrmRequest {
  const multis = p.stack ?? [];
  const first = multis[0]?.multi;
  if (!first) throw new Error('a stack slip without multis');
  return {
    session_id: p.sessionId,
    track: first.track,
    race_num: first.raceNum,
    race_type: first.raceType,
    date: first.date,
    bets: multis.map((m, i) => ({
      stake: (stakesCents[i] ?? m.stakeCents) / 100,
      legs: m.multi.legs.map((l) => ({ runner: l.runner, position: l.position })),
      target_odds: m.minOdds ?? NO_FLOOR,
      ...(m.useBonusBet ? { use_bonus_bet: true } : {}),
    })),
    ...(callbackUrl ? { callback_url: callbackUrl } : {}),
  };
}

/** One multi's part of a stacked_srm outcome. */
export type StackPart =
  | { kind: 'placed'; betId: string; odds: number | null; stakeCents?: number }
  | { kind: 'refused'; note: string }
  | { kind: 'unknown'; note: string };

/**
 * A stacked_srm result read per multi: placed with its bet id, refused with its reason; a refusal before placement
 * (success false, no results) refuses every multi with the book's reason, naming the multi it blames.
 */
export function stackParts(result: StackedSrmResult | undefined, count: number): StackPart[] {
  if (!result) return Array.from({ length: count }, () => ({ kind: 'unknown', note: 'unreadable result' }));
  const rows = result.results ?? [];
  if (rows.length === 0) {
    const why = result.error ?? 'the book refused the stack before placing any multi';
    const note = `the book refused the whole stack before placing any multi (${blameText(why)}); nothing was placed`;
    return Array.from({ length: count }, () => ({ kind: 'refused', note }));
  }
  return Array.from({ length: count }, (_, i): StackPart => {
    const row = rows[i];
    if (!row) return { kind: 'unknown', note: 'the book gave no result for this multi' };
    if (row.success && row.bet_id) {
      return {
        kind: 'placed',
        betId: row.bet_id,
        odds: row.odds ?? null,
        ...(typeof row.stake === 'number' ? { stakeCents: centsFromDollars(row.stake) } : {}),
      };
    }
    return { kind: 'refused', note: row.error ?? 'the bookmaker refused this multi' };
  });
}

/** The book's "bet 2: …" in the desk's words: "multi 2: …" (its multis are numbered as the slip numbers them). */
function blameText(error: string): string {
  return error.replace(/\bbet (\d+)\b/g, 'multi $1').replace(/;\s*nothing was placed\.?$/, '');
}
