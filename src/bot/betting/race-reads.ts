/**
 * The race reads a desk holds (decision 2050): each book's win prices of a race as a price check last gave them, so
 * a multi's or a stack's slip is priced from what the legs' autocomplete read moments before instead of waiting
 * for a new racing price check (always a job, 0.3 to 1.5 s at the book plus the poll). Confirm still reads the race
 * again at the slip's book (multiStillPriced), so a runner scratched meanwhile refuses the multi there.
 */

import type { Catalog } from '../catalog/index.js';
import type { GatewayPort } from '../gateway-port.js';
import type { RaceKey } from '../model/racing-bet.js';
import { SingleFlight } from '../ops/single-flight.js';
import { type RaceRead, raceWinPrices } from './multi-prices.js';

/** A read younger than this is as good as a new one: the leg autocomplete reads again only past it. */
export const RACE_READ_FRESH_MS = 10_000;
/** The oldest read a slip is priced from; older, the slip reads the race again before it is posted. */
export const RACE_READ_USABLE_MS = 30_000;

/** One book's read of a race and when it was made (the desk's clock). */
export interface HeldRead {
  at: number;
  read: RaceRead;
}

/** How a read is asked for: the gateway, the clock, where answers go, and how old a held read may be. */
export interface RaceReadAsk {
  gateway: GatewayPort;
  now: () => number;
  callbackUrl: string | undefined;
  waitMs: number;
  maxAgeMs: number;
  /** Told of each book's answer as it comes, when this ask sends the price check. */
  onRead?: (read: RaceRead) => void;
}

const keyOf = (r: RaceKey) => `${r.track.toLowerCase()}/${r.raceNum}/${r.raceType}/${r.date}`;

/**
 * The race reads of one desk, by race and book (a book's win prices are the book's, whichever of its sessions read
 * them). A book whose read failed holds nothing, so the next ask reads it again.
 */
export class RaceReads {
  readonly #held = new Map<string, Map<string, HeldRead>>();
  readonly #fills = new SingleFlight();

  /** The held read of the race at a book, if younger than `maxAgeMs`. */
  held(race: RaceKey, bookie: string, maxAgeMs: number, now: number): HeldRead | undefined {
    const h = this.#held.get(keyOf(race))?.get(bookie);
    return h && now - h.at <= maxAgeMs ? h : undefined;
  }

  /**
   * The race at each session's book: a held read younger than `ask.maxAgeMs`, else one price check for every
   * session whose book has none (shared with any ask of the same race and books meanwhile). In `sessions`' order.
   */
  async read(
    race: RaceKey,
    sessions: ReadonlyArray<{ session_id: string; bookie: string }>,
    ask: RaceReadAsk,
  ): Promise<HeldRead[]> {
    const now = ask.now();
    const kept = new Map(sessions.map((s) => [s.bookie, this.held(race, s.bookie, ask.maxAgeMs, now)] as const));
    const missing = sessions.filter((s) => !kept.get(s.bookie));
    const fetched =
      missing.length === 0
        ? new Map<string, HeldRead>()
        : await this.#fills.run(`${keyOf(race)}|${missing.map((s) => s.session_id).join(',')}`, () =>
            this.#fetch(race, missing, ask),
          );
    return sessions.map((s) => {
      const h = fetched.get(s.bookie) ?? kept.get(s.bookie);
      const read = h?.read ?? { bookie: s.bookie, win: new Map(), error: 'no answer' };
      return { at: h?.at ?? now, read: { ...read, sessionId: s.session_id } };
    });
  }

  /** One price check at these sessions; each book's answer (an error too), kept when it priced the race. */
  async #fetch(
    race: RaceKey,
    sessions: ReadonlyArray<{ session_id: string; bookie: string }>,
    ask: RaceReadAsk,
  ): Promise<Map<string, HeldRead>> {
    const at = ask.now();
    const reads = await raceWinPrices(ask.gateway, race, sessions, ask.callbackUrl, ask.waitMs, ask.onRead);
    this.#prune(at);
    const key = keyOf(race);
    const byBook = this.#held.get(key) ?? new Map<string, HeldRead>();
    this.#held.set(key, byBook);
    const out = new Map<string, HeldRead>();
    for (const read of reads) {
      out.set(read.bookie, { at, read });
      if (read.error === undefined && read.win.size > 0) byBook.set(read.bookie, { at, read });
      else byBook.delete(read.bookie);
    }
    return out;
  }

  /** Forgets the races whose every read is too old to price a slip. */
  #prune(now: number): void {
    for (const [key, byBook] of this.#held) {
      if ([...byBook.values()].every((h) => now - h.at > RACE_READ_USABLE_MS)) this.#held.delete(key);
    }
  }
}

const desks = new WeakMap<object, RaceReads>();

/** The race reads of the desk that owns this catalog (one per desk, however many share a process). */
export function raceReadsOf(catalog: Catalog): RaceReads {
  let reads = desks.get(catalog);
  if (!reads) {
    reads = new RaceReads();
    desks.set(catalog, reads);
  }
  return reads;
}
