// Pure measures of a card-read schedule against the re-scrapes it chases (figure 27): how long each change waited
// for its first read, what share of changes were read before the next re-scrape, and reads that found nothing new.

/** One card read: which card, when (ms), and a digest of what it showed. */
export interface CardReadLog {
  card: string;
  at: number;
  digest: string;
}

/** A card's content changing (a re-scrape) at `at` ms. */
export interface CardChange {
  card: string;
  at: number;
}

/** Read times by card, ascending. */
export function readTimesByCard(reads: readonly { card: string; at: number }[]): Map<string, number[]> {
  const by = new Map<string, number[]>();
  for (const r of reads) {
    const list = by.get(r.card);
    if (list) list.push(r.at);
    else by.set(r.card, [r.at]);
  }
  for (const list of by.values()) list.sort((a, b) => a - b);
  return by;
}

/** The first time in `times` (ascending) at or after `at`; undefined when none. */
function firstAtOrAfter(times: readonly number[], at: number): number | undefined {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (times[mid]! < at) lo = mid + 1;
    else hi = mid;
  }
  return times[lo];
}

/** For each change, the wait to its card's first read at or after it (ms); changes never read are left out. */
export function waitsToRead(changes: readonly CardChange[], reads: ReadonlyMap<string, readonly number[]>): number[] {
  return changes.flatMap((c) => {
    const read = firstAtOrAfter(reads.get(c.card) ?? [], c.at);
    return read === undefined ? [] : [read - c.at];
  });
}

/** The share (0..1) of changes whose card was read within `cycleMs` of the change (before the next re-scrape). */
export function coverage(
  changes: readonly CardChange[],
  reads: ReadonlyMap<string, readonly number[]>,
  cycleMs: number,
): number {
  if (changes.length === 0) throw new RangeError('no changes to cover: the run saw no re-scrape');
  const covered = changes.filter((c) => {
    const read = firstAtOrAfter(reads.get(c.card) ?? [], c.at);
    return read !== undefined && read < c.at + cycleMs;
  }).length;
  return covered / changes.length;
}

/**
 * Reads that found no change: the card's digest equals the one its previous read showed. A card's first read in
 * the log has nothing to compare with and is not counted either way.
 */
export function wastedReads(log: readonly CardReadLog[], from = Number.NEGATIVE_INFINITY): number {
  const last = new Map<string, string>();
  let wasted = 0;
  for (const r of [...log].sort((a, b) => a.at - b.at)) {
    const before = last.get(r.card);
    if (before !== undefined && before === r.digest && r.at >= from) wasted++;
    last.set(r.card, r.digest);
  }
  return wasted;
}
