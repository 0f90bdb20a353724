/**
 * Closing line capture: reads each open sports bet's card on a schedule before the off and hands the latest
 * pre-off price to recordClose, so the last call for a bet is its close. Bets on one card share each read.
 * Card reads share the gateway's 120-a-minute budget with members: capture reads in the library limiter's
 * background lane, which holds it to a bounded share of any window (`marketRateLimit.backgroundShare`) and lets
 * it read only while no member's read is queued; a read the lane refuses is left for a later pass.
 */

import { CardLimitError, type MarketCard } from '../../gateway/index.js';
import type { Logger } from '../config/logger.js';
import { closeMarketOf } from './close-market.js';
import type { BookClose } from './facts.js';

export interface OpenSportsBet {
  betId: string;
  sessionId: string;
  epk: string;
  bookie: string;
  marketRef: string;
  /** When the event goes off (epoch ms). */
  startsAt: number;
}

export interface OpenSportsBets {
  openSportsBets(): Promise<OpenSportsBet[]>;
}

/** Options every capture read passes: the background lane, refused at once rather than queued. */
export const CAPTURE_READ = Object.freeze({ lane: 'background', maxQueueMs: 0 } as const);

/** Card reads (the client's `markets`); capture passes CAPTURE_READ on every read. */
export interface CardReader {
  get(query: { epk: string; bookie: string }, options: typeof CAPTURE_READ): PromiseLike<MarketCard>;
}

export type RecordClose = (betId: string, odds: number, market: BookClose | null, at: number) => Promise<void> | void;

export interface ClosingCaptureOptions {
  bets: OpenSportsBets;
  cards: CardReader;
  recordClose: RecordClose;
  now?: () => number;
  /** How long before the off each card is read, e.g. 30, 10, 3 and 1 minutes; the last read is the close. */
  leadsMs?: number[];
  tickMs?: number;
  logger?: Pick<Logger, 'warn'>;
}

export interface TickResult {
  /** Cards read this tick. */
  read: number;
  /** Closes handed to recordClose. */
  recorded: number;
  /** Cards due but left for a later tick (the limiter's background share used, or members waiting). */
  deferred: number;
  failed: number;
}

const MINUTE = 60_000;
const DEFAULT_LEADS = [30 * MINUTE, 10 * MINUTE, 3 * MINUTE, MINUTE];

/** Closes recorded from a card read, or why nothing was read. */
type Outcome = number | 'deferred' | 'failed';

interface CardDue {
  key: string;
  epk: string;
  bookie: string;
  startsAt: number;
  slot: number;
  bets: OpenSportsBet[];
}

export class ClosingCapture {
  readonly #o: ClosingCaptureOptions;
  readonly #now: () => number;
  readonly #leads: number[];
  /** Highest schedule slot read per card, and when its event goes off (to forget it after). */
  readonly #done = new Map<string, { slot: number; startsAt: number }>();
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<TickResult> | undefined;

  constructor(o: ClosingCaptureOptions) {
    this.#o = o;
    this.#now = o.now ?? Date.now;
    this.#leads = [...(o.leadsMs ?? DEFAULT_LEADS)].sort((a, b) => b - a);
    if (this.#leads.length === 0 || this.#leads.some((l) => !(l > 0))) {
      throw new RangeError('leadsMs must list at least one positive lead time before the off');
    }
  }

  start(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => void this.tick().catch(() => undefined), this.#o.tickMs ?? 5_000);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#running?.catch(() => undefined);
  }

  /** One pass; overlapping calls share the pass under way. */
  tick(): Promise<TickResult> {
    this.#running ??= this.#pass().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  /** The slot due now for an event going off at `startsAt`, or -1 (too early, or already off). */
  #dueSlot(startsAt: number, now: number): number {
    if (now >= startsAt) return -1;
    let slot = -1;
    for (const [i, lead] of this.#leads.entries()) if (now >= startsAt - lead) slot = i;
    return slot;
  }

  async #pass(): Promise<TickResult> {
    const now = this.#now();
    for (const [key, d] of this.#done) if (d.startsAt < now - MINUTE) this.#done.delete(key);
    const cards = new Map<string, CardDue>();
    for (const bet of await this.#o.bets.openSportsBets()) {
      const slot = this.#dueSlot(bet.startsAt, now);
      if (slot < 0) continue;
      const key = `${bet.bookie}|${bet.epk}`;
      if ((this.#done.get(key)?.slot ?? -1) >= slot) continue;
      const card = cards.get(key);
      if (card) card.bets.push(bet);
      else cards.set(key, { key, epk: bet.epk, bookie: bet.bookie, startsAt: bet.startsAt, slot, bets: [bet] });
    }
    // Most urgent first: the limiter admits the lane's reads in the order they are asked for.
    const due = [...cards.values()].sort((a, b) => a.startsAt - b.startsAt);
    const outcomes = await Promise.all(due.map((c) => this.#read(c, now)));
    const count = (o: Outcome) => outcomes.filter((x) => x === o).length;
    return {
      read: due.length - count('deferred'),
      recorded: outcomes.reduce<number>((s, o) => s + (typeof o === 'number' ? o : 0), 0),
      deferred: count('deferred'),
      failed: count('failed'),
    };
  }

  /** Closes recorded from one card read; a refused or failed read is tried again next tick. */
  async #read(c: CardDue, at: number): Promise<Outcome> {
    let card: MarketCard;
    try {
      card = await this.#o.cards.get({ epk: c.epk, bookie: c.bookie }, CAPTURE_READ);
    } catch (err) {
      // The background share is used or members are waiting: nothing was sent.
      if (err instanceof CardLimitError) return 'deferred';
      this.#o.logger?.warn('closing price read failed; will retry', { epk: c.epk, bookie: c.bookie, err });
      return 'failed';
    }
    this.#done.set(c.key, { slot: c.slot, startsAt: c.startsAt });
    let recorded = 0;
    for (const bet of c.bets) {
      for (const market of card.markets) {
        const sel = market.selections.find((s) => s.market_ref === bet.marketRef);
        if (!sel) continue;
        if (typeof sel.odds === 'number' && sel.odds > 1) {
          await this.#o.recordClose(bet.betId, sel.odds, closeMarketOf(market, sel), at);
          recorded++;
        }
        break;
      }
    }
    return recorded;
  }
}
