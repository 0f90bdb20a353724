/**
 * Which watched cards to read now, pure (docs/decisions/1850-watch-read-scheduler.md). A card changes only when
 * its book re-scrapes, and a book re-scrapes its cards together on a cadence; so the scheduler learns each book's
 * cadence from the changes it sees, probes one card of the book when the next re-scrape is likely, and once a
 * probe (or any read) finds a change, sweeps the book's other watched cards. A read the model skips that a
 * round-robin of the same interval would have made counts as saved.
 */

/** What the scheduler knows of one watched card. */
export interface CardWatchState {
  epk: string;
  bookie: string;
  /** Last read (bot clock ms); null: never read in this process. */
  readAt: number | null;
  /** When this card's last re-scrape was first seen; null: none seen. */
  changedAt: number | null;
  /** Event start (ms); null when unknown. */
  startsAt: number | null;
  /** Watches riding on the card. */
  watches: number;
  /** Best edge (0.03 = 3 %) any watched selection on the card showed at its last read; 0 when none. */
  edge: number;
}

/** A book's re-scrape cadence as learned: the times its re-scrapes were first seen, newest last. */
export interface BookCadence {
  /** First-seen times of distinct re-scrapes (a few of the newest). */
  seen: number[];
  /** The latest read of the book's cards that found no change since the last re-scrape seen (a lower bound). */
  quietAt: number | null;
}

export interface ScheduleOptions {
  /** Re-read interval while a book's cadence is unknown, and the round-robin the saved reads are counted against. */
  fallbackMs: number;
  /** After a likely re-scrape finds nothing, the next probe waits this long. */
  probeMs: number;
  /** No card goes unread longer than this, whatever the model says. */
  maxStaleMs: number;
}

/** Changes seen this close together are one re-scrape (the cards of a book seen in one sweep). */
export const SAME_SCRAPE_MS = 15_000;
const KEEP_SEEN = 9;

/**
 * The cadence after a read at `at` found a card changed since its previous read at `prevReadAt`. The change is the
 * re-scrape last seen (no new point) when it came within SAME_SCRAPE_MS of it, or when the card's previous read was
 * before it: a card not read since the book's last re-scrape shows that one, whenever it is read (decision 1940;
 * counting those as new re-scrapes made a slow sweep look like a fast cadence).
 */
export function sawChange(c: BookCadence | undefined, at: number, prevReadAt: number | null = null): BookCadence {
  const seen = c?.seen ?? [];
  const last = seen.at(-1);
  if (last !== undefined && (at - last < SAME_SCRAPE_MS || (prevReadAt !== null && prevReadAt < last))) {
    return { seen, quietAt: null };
  }
  return { seen: [...seen, at].slice(-KEEP_SEEN), quietAt: null };
}

/** The cadence after a read of the book found nothing new at `at`. */
export function sawQuiet(c: BookCadence | undefined, at: number): BookCadence {
  return { seen: c?.seen ?? [], quietAt: Math.max(c?.quietAt ?? 0, at) };
}

/** The learned interval between a book's re-scrapes: the median gap between re-scrapes seen; null under two gaps. */
export function cadenceOf(c: BookCadence | undefined): number | null {
  const seen = c?.seen ?? [];
  if (seen.length < 3) return null;
  const gaps = seen
    .slice(1)
    .map((t, i) => t - seen[i]!)
    .sort((a, b) => a - b);
  return gaps[Math.floor(gaps.length / 2)]!;
}

/** When the book's next re-scrape is likely: a cadence after the last one seen (undefined while unknown). */
export function nextLikelyScrape(c: BookCadence | undefined): number | undefined {
  const cadence = cadenceOf(c);
  const last = c?.seen.at(-1);
  if (cadence === null || last === undefined) return undefined;
  return last + cadence;
}

/** Why a card is read now. */
export type ReadReason = 'first' | 'sweep' | 'probe' | 'fallback' | 'stale';

export interface Plan {
  /** Cards to read, best first, each with why. */
  reads: { card: CardWatchState; reason: ReadReason }[];
  /** Cards a round-robin at fallbackMs would read now that the model skips. */
  saved: CardWatchState[];
}

/**
 * The order cards wait in when the budget is short (the documented degradation order): events starting within the
 * next 24 h first, sooner first; then more watches on the card; then more edge; then the card read longest ago.
 */
export function priorityCompare(now: number) {
  const soon = (c: CardWatchState) => c.startsAt !== null && c.startsAt - now <= 24 * 3600_000;
  return (a: CardWatchState, b: CardWatchState): number =>
    Number(soon(b)) - Number(soon(a)) ||
    (soon(a) ? (a.startsAt ?? 0) - (b.startsAt ?? 0) : 0) ||
    b.watches - a.watches ||
    b.edge - a.edge ||
    (a.readAt ?? 0) - (b.readAt ?? 0);
}

/** The cards due now, in priority order, one probe per book. */
export function planReads(
  cards: readonly CardWatchState[],
  cadences: ReadonlyMap<string, BookCadence>,
  now: number,
  o: ScheduleOptions,
): Plan {
  const reads: Plan['reads'] = [];
  const saved: CardWatchState[] = [];
  const probed = new Set<string>();
  for (const card of [...cards].sort(priorityCompare(now))) {
    const c = cadences.get(card.bookie);
    const lastScrape = c?.seen.at(-1);
    const likely = nextLikelyScrape(c);
    const naiveDue = card.readAt === null || now >= card.readAt + o.fallbackMs;
    let reason: ReadReason | undefined;
    if (card.readAt === null) reason = 'first';
    else if (lastScrape !== undefined && lastScrape > card.readAt) reason = 'sweep';
    else if (now >= card.readAt + o.maxStaleMs) reason = 'stale';
    else if (likely === undefined) reason = naiveDue ? 'fallback' : undefined;
    // Probing starts probeMs before the likely re-scrape: a re-scrape is first seen up to a probe late, and a
    // cadence counted from late sightings would otherwise drift later every cycle.
    else if (now >= likely - o.probeMs && now >= (c?.quietAt ?? 0) + o.probeMs && !probed.has(card.bookie))
      reason = 'probe';
    if (reason === 'probe') probed.add(card.bookie);
    if (reason) reads.push({ card, reason });
    else if (naiveDue) saved.push(card);
  }
  // Stable: each class keeps the priority order (decision 1940).
  reads.sort((a, b) => READ_CLASS[a.reason] - READ_CLASS[b.reason]);
  return { reads, saved };
}

/**
 * Which reads go first when the budget is short: a probe (one per book, it finds the re-scrape the rest wait for),
 * then reads known to find something new (a card never read, a sweep after a re-scrape, one unread too long), then
 * the fallback re-reads of books whose cadence is not known yet (they find a change only by chance).
 */
const READ_CLASS: Record<ReadReason, number> = { probe: 0, first: 1, sweep: 1, stale: 1, fallback: 2 };
