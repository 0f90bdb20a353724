/**
 * Closing line capture: reads each open sports bet's card on a schedule before the off and hands the latest
 * pre-off price to recordClose, so the last call for a bet is its close. Bets on one card share each read.
 * Card reads share the gateway's 120-a-minute budget with members: capture takes at most a bounded share in
 * any window and stands aside entirely while an interactive read is queued.
 */

import type { MarketCard } from '../../gateway/index.js';
import type { Logger } from '../config/logger.js';
import { closeMarketOf } from './close-market.js';
import type { CloseMarket } from './facts.js';

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

export interface CardReader {
  read(epk: string, bookie: string): Promise<MarketCard>;
}

export type RecordClose = (betId: string, odds: number, market: CloseMarket | null, at: number) => Promise<void> | void;

export interface ClosingCaptureOptions {
  bets: OpenSportsBets;
  cards: CardReader;
  recordClose: RecordClose;
  now?: () => number;
  /** How long before the off each card is read, e.g. 30, 10, 3 and 1 minutes; the last read is the close. */
  leadsMs?: number[];
  /** The gateway's card limit and window, and the share of it capture may use. */
  perMinute?: number;
  windowMs?: number;
  share?: number;
  /** Interactive card reads waiting for a slot (the client limiter's queue); capture waits while any do. */
  interactiveQueued?: () => number;
  tickMs?: number;
  logger?: Pick<Logger, 'warn'>;
}

export interface TickResult {
  /** Cards read this tick. */
  read: number;
  /** Closes handed to recordClose. */
  recorded: number;
  /** Cards due but left for a later tick (budget used, or members waiting). */
  deferred: number;
  failed: number;
}

const MINUTE = 60_000;
const DEFAULT_LEADS = [30 * MINUTE, 10 * MINUTE, 3 * MINUTE, MINUTE];

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
  /** Reads capture may send in any window. */
  readonly capacity: number;
  readonly #windowMs: number;
  readonly #sent: number[] = [];
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
    const share = o.share ?? 0.25;
    if (!(share > 0 && share < 1)) throw new RangeError(`share must be between 0 and 1 (got ${share})`);
    this.capacity = Math.max(1, Math.floor((o.perMinute ?? 120) * share));
    this.#windowMs = o.windowMs ?? MINUTE;
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
    for (const [key, d] of this.#done) if (d.startsAt < now - this.#windowMs) this.#done.delete(key);
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
    const due = [...cards.values()].sort((a, b) => a.startsAt - b.startsAt);
    const edge = now - this.#windowMs;
    while (this.#sent.length > 0 && (this.#sent[0] as number) <= edge) this.#sent.shift();
    const waiting = this.#o.interactiveQueued?.() ?? 0;
    const room = waiting > 0 ? 0 : Math.max(0, this.capacity - this.#sent.length);
    const batch = due.slice(0, room);
    for (let i = 0; i < batch.length; i++) this.#sent.push(now);
    const outcomes = await Promise.all(batch.map((c) => this.#read(c, now)));
    return {
      read: batch.length,
      recorded: outcomes.reduce<number>((s, o) => s + (o ?? 0), 0),
      deferred: due.length - batch.length,
      failed: outcomes.filter((o) => o === undefined).length,
    };
  }

  /** Closes recorded from one card read, or undefined when the read failed (retried next tick). */
  async #read(c: CardDue, at: number): Promise<number | undefined> {
    let card: MarketCard;
    try {
      card = await this.#o.cards.read(c.epk, c.bookie);
    } catch (err) {
      this.#o.logger?.warn('closing price read failed; will retry', { epk: c.epk, bookie: c.bookie, err });
      return undefined;
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
