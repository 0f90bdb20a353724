/**
 * A same-race multi's close (decision 2040): the race's win prices read at every book on a steady beat while a multi
 * on it is placed and unsettled, each read's fair chance of the multi (model/multi-fair.ts, the slip's own model)
 * handed to recordClose, so the last read before the race's result is its close. No racing answer of the gateway
 * carries a start time, so the beat cannot aim at the jump as the sports capture aims at the off.
 */

import type { Logger } from '../config/logger.js';
import type { MarginMethod } from '../model/fair-price.js';
import { type BookWinPrices, multiFair, type NamedLeg } from '../model/multi-fair.js';
import type { RaceKey } from '../model/racing-bet.js';
import type { FairClose } from './facts.js';

/** A placed multi not settled yet: its bet record, its race and legs, the margin method its slip priced it by. */
export interface OpenMulti {
  betId: string;
  race: RaceKey;
  legs: NamedLeg[];
  method: MarginMethod;
}

export interface RaceClosesOptions {
  openMultis(): Promise<OpenMulti[]>;
  /** The race's win prices at one active session per book (one racing price check for all). */
  readRace(race: RaceKey): Promise<BookWinPrices[]>;
  recordClose(betId: string, odds: number, market: FairClose, at: number): Promise<void> | void;
  now?: () => number;
  /** How often one race is read while a multi on it is open (default 2 minutes). */
  everyMs?: number;
  /** How often the beat looks for races due (default 20 seconds). */
  tickMs?: number;
  logger?: Pick<Logger, 'warn'>;
}

export interface RaceTick {
  /** Races read this tick. */
  read: number;
  /** Closes handed to recordClose. */
  recorded: number;
  failed: number;
}

const MINUTE = 60_000;
const raceKeyOf = (r: RaceKey) => `${r.track}/${r.raceNum}/${r.raceType}/${r.date}`;

export class RaceCloseCapture {
  readonly #o: RaceClosesOptions;
  readonly #now: () => number;
  readonly #every: number;
  /** When each race was last read. */
  readonly #lastRead = new Map<string, number>();
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<RaceTick> | undefined;

  constructor(o: RaceClosesOptions) {
    this.#o = o;
    this.#now = o.now ?? Date.now;
    this.#every = o.everyMs ?? 2 * MINUTE;
    if (!(this.#every > 0)) throw new RangeError('everyMs must be a positive number of milliseconds');
  }

  start(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => void this.tick().catch(() => undefined), this.#o.tickMs ?? 20_000);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#running?.catch(() => undefined);
  }

  /** One pass; overlapping calls share the pass under way. */
  tick(): Promise<RaceTick> {
    this.#running ??= this.#pass().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  async #pass(): Promise<RaceTick> {
    const now = this.#now();
    const races = new Map<string, { race: RaceKey; multis: OpenMulti[] }>();
    for (const m of await this.#o.openMultis()) {
      const key = raceKeyOf(m.race);
      const entry = races.get(key);
      if (entry) entry.multis.push(m);
      else races.set(key, { race: m.race, multis: [m] });
    }
    for (const key of this.#lastRead.keys()) if (!races.has(key)) this.#lastRead.delete(key);
    const due = [...races].filter(
      ([key]) => now - (this.#lastRead.get(key) ?? Number.NEGATIVE_INFINITY) >= this.#every,
    );
    const outcomes = await Promise.all(due.map(([key, r]) => this.#read(key, r.race, r.multis, now)));
    return {
      read: outcomes.filter((o) => o !== 'failed').length,
      recorded: outcomes.reduce<number>((s, o) => s + (o === 'failed' ? 0 : o), 0),
      failed: outcomes.filter((o) => o === 'failed').length,
    };
  }

  /**
   * Closes recorded from one read of the race. A multi whose legs the books no longer price in full (a runner
   * scratched, or the race closed) keeps the close it had: an incomplete field is never a close.
   */
  async #read(key: string, race: RaceKey, multis: OpenMulti[], at: number): Promise<number | 'failed'> {
    let books: BookWinPrices[];
    try {
      books = (await this.#o.readRace(race)).filter((b) => b.win.size > 0);
    } catch (err) {
      this.#o.logger?.warn('race close read failed; will retry', { race: key, err });
      return 'failed';
    }
    this.#lastRead.set(key, at);
    let recorded = 0;
    for (const m of multis) {
      const fair = multiFair({ books, legs: m.legs, method: m.method });
      if (fair.kind !== 'fair') continue;
      await this.#o.recordClose(
        m.betId,
        fair.odds,
        { kind: 'fair', probability: fair.probability, books: fair.books, method: m.method },
        at,
      );
      recorded++;
    }
    return recorded;
  }
}
