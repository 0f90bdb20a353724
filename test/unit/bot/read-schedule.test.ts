import { describe, expect, it } from 'vitest';
import {
  type BookCadence,
  type CardWatchState,
  cadenceOf,
  planReads,
  priorityCompare,
  sawChange,
  sawQuiet,
} from '../../../src/bot/watch/model/read-schedule.js';

const MIN = 60_000;
const opts = { fallbackMs: MIN, probeMs: 10_000, maxStaleMs: 30 * MIN };

function card(over: Partial<CardWatchState>): CardWatchState {
  return { epk: 'e', bookie: 'bookie_a', readAt: 0, changedAt: null, startsAt: null, watches: 1, edge: 0, ...over };
}

describe('a book re-scrape cadence learned from the changes seen', () => {
  it('is the median gap between distinct re-scrapes; changes seen in one sweep are one re-scrape', () => {
    let c: BookCadence | undefined;
    for (const at of [0, 5_000, 5 * MIN, 10 * MIN + 2_000, 15 * MIN]) c = sawChange(c, at);
    expect(c!.seen).toEqual([0, 5 * MIN, 10 * MIN + 2_000, 15 * MIN]);
    expect(cadenceOf(c)).toBe(5 * MIN);
    expect(cadenceOf(sawChange(undefined, 0))).toBeNull();
  });

  it('a change on a card not read since the last re-scrape seen is that re-scrape, however late it is read', () => {
    let c: BookCadence | undefined = sawChange(undefined, 0);
    // The sweep after that re-scrape reaches a card read before it two minutes later: no new re-scrape.
    c = sawChange(c, 2 * MIN, -3 * MIN);
    expect(c.seen).toEqual([0]);
    // A card read after it that changed again is the next one.
    c = sawChange(c, 5 * MIN, 2 * MIN);
    expect(c.seen).toEqual([0, 5 * MIN]);
  });
});

describe('which watched cards are read now', () => {
  const cadence = new Map<string, BookCadence>([['bookie_a', { seen: [0, 5 * MIN, 10 * MIN], quietAt: null }]]);

  it('reads nothing of a book before its next likely re-scrape, and counts what a round-robin would have read', () => {
    const cards = [card({ readAt: 10 * MIN + 1_000 }), card({ epk: 'f', readAt: 10 * MIN + 1_000 })];
    const plan = planReads(cards, cadence, 13 * MIN, opts);
    expect(plan.reads).toEqual([]);
    expect(plan.saved).toHaveLength(2);
  });

  it('probes one card per book at the likely re-scrape, then sweeps the rest once a change is seen', () => {
    const cards = [card({ readAt: 10 * MIN + 1_000 }), card({ epk: 'f', readAt: 10 * MIN + 1_000 })];
    const probe = planReads(cards, cadence, 15 * MIN, opts);
    expect(probe.reads.map((r) => r.reason)).toEqual(['probe']);
    const seen = new Map([['bookie_a', sawChange(cadence.get('bookie_a'), 15 * MIN + 500)]]);
    const sweep = planReads(
      [card({ readAt: 15 * MIN + 500 }), card({ epk: 'f', readAt: 10 * MIN + 1_000 })],
      seen,
      15 * MIN + 600,
      opts,
    );
    expect(sweep.reads.map((r) => [r.card.epk, r.reason])).toEqual([['f', 'sweep']]);
  });

  it('starts probing probeMs before the likely re-scrape, so late sightings do not push the cadence later', () => {
    const cards = [card({ readAt: 10 * MIN + 1_000 })];
    expect(planReads(cards, cadence, 15 * MIN - 10_001, opts).reads).toEqual([]);
    expect(planReads(cards, cadence, 15 * MIN - 10_000, opts).reads.map((r) => r.reason)).toEqual(['probe']);
  });

  it('when the budget is short, a probe goes first, then reads known to find a change, then fallback re-reads', () => {
    const cadences = new Map<string, BookCadence>([
      ...cadence,
      ['bookie_b', { seen: [0, 5 * MIN, 10 * MIN + 30_000], quietAt: null }],
    ]);
    const cards = [
      card({ epk: 'unknown-book', bookie: 'bookie_c', readAt: 0, startsAt: 60_000 }),
      card({ epk: 'swept', bookie: 'bookie_b', readAt: 10 * MIN, startsAt: 120_000 }),
      card({ epk: 'never', bookie: 'bookie_c', readAt: null, startsAt: 180_000 }),
      card({ epk: 'probed', readAt: 10 * MIN + 1_000, startsAt: 240_000 }),
    ];
    const plan = planReads(cards, cadences, 15 * MIN, opts);
    expect(plan.reads.map((r) => [r.card.epk, r.reason])).toEqual([
      ['probed', 'probe'],
      ['swept', 'sweep'],
      ['never', 'first'],
      ['unknown-book', 'fallback'],
    ]);
  });

  it('after a probe finds nothing, the next waits probeMs', () => {
    const quiet = new Map([['bookie_a', sawQuiet(cadence.get('bookie_a'), 15 * MIN)]]);
    const cards = [card({ readAt: 15 * MIN })];
    expect(planReads(cards, quiet, 15 * MIN + 5_000, opts).reads).toEqual([]);
    expect(planReads(cards, quiet, 15 * MIN + 10_000, opts).reads.map((r) => r.reason)).toEqual(['probe']);
  });

  it('orders cards by events starting soon, then watches, then edge', () => {
    const now = 0;
    const later = card({ epk: 'later', startsAt: 3 * 86_400_000, watches: 9 });
    const soon = card({ epk: 'soon', startsAt: 3_600_000 });
    const sooner = card({ epk: 'sooner', startsAt: 600_000 });
    const busy = card({ epk: 'busy', startsAt: 3 * 86_400_000, watches: 9, edge: 0.05 });
    expect([later, soon, busy, sooner].sort(priorityCompare(now)).map((c) => c.epk)).toEqual([
      'sooner',
      'soon',
      'busy',
      'later',
    ]);
  });
});
