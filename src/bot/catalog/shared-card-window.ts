import type { ReadLane, SharedCardBudget } from '../../gateway/index.js';
import type { BotStore } from '../store/index.js';

/** Where the key's window lives in the store (keyv, read and written only under the store's lock of the same name). */
export const CARD_WINDOW_KEY = 'card-window';

export interface SharedCardWindowOptions {
  /** The gateway's limit per window for the key (120 a minute). */
  perMinute: number;
  windowMs: number;
  /** Background reads (watches, closing capture) allowed per window across every process: members keep the rest. */
  backgroundCapacity: number;
  /**
   * How much longer than the window a read counts: the gateway counts a read when it arrives, after we send it, so a
   * slot freed exactly a window after the send could meet a 429 (the local limiter counts from the answer instead).
   */
  marginMs?: number;
  /** Wall clock: the gateway's window is real time, whatever clock the desk runs on. */
  now?: () => number;
}

/** One read of the window: when it was sent, and whether it was a background read. */
type Read = [at: number, background: 0 | 1];

/**
 * The key's card budget shared by every bot process on one PostgreSQL store (decision 1941): the reads of the last
 * window, all processes together, kept in one store value that each read's admission reads and writes under the
 * store's cross-process lock. A read goes when the key's window has a slot (and, for a background read, the lane's
 * share has one); otherwise the caller hears how long until the oldest counted read leaves the window.
 */
export class SharedCardWindow implements SharedCardBudget {
  readonly #store: Pick<BotStore, 'kv' | 'withLock'>;
  readonly #o: Required<SharedCardWindowOptions>;

  constructor(store: Pick<BotStore, 'kv' | 'withLock'>, o: SharedCardWindowOptions) {
    this.#store = store;
    this.#o = { marginMs: 2_000, now: Date.now, ...o };
  }

  take(lane: ReadLane): Promise<number> {
    return this.#store.withLock(CARD_WINDOW_KEY, async () => {
      const now = this.#o.now();
      const span = this.#o.windowMs + this.#o.marginMs;
      const stored = await this.#store.kv.get<{ reads?: Read[] }>(CARD_WINDOW_KEY);
      const reads = (Array.isArray(stored?.reads) ? stored.reads : []).filter(
        (r): r is Read => Array.isArray(r) && typeof r[0] === 'number' && r[0] > now - span && r[0] <= now,
      );
      const waitFor = (counted: Read[], capacity: number) =>
        counted.length < capacity ? 0 : Math.max(1, counted[counted.length - capacity]![0] + span - now);
      const full = waitFor(reads, this.#o.perMinute);
      const share =
        lane === 'background'
          ? waitFor(
              reads.filter((r) => r[1] === 1),
              this.#o.backgroundCapacity,
            )
          : 0;
      const wait = Math.max(full, share);
      if (wait > 0) return wait;
      reads.push([now, lane === 'background' ? 1 : 0]);
      await this.#store.kv.set(CARD_WINDOW_KEY, { reads });
      return 0;
    });
  }

  /** Reads counted in the key's window now, every process's (tests, metrics). */
  async counted(): Promise<number> {
    const stored = await this.#store.kv.get<{ reads?: Read[] }>(CARD_WINDOW_KEY);
    const since = this.#o.now() - this.#o.windowMs - this.#o.marginMs;
    return (stored?.reads ?? []).filter((r) => r[0] > since).length;
  }
}

/**
 * The key's card budget across processes: several processes share a PostgreSQL store, so they take their card reads
 * from one window kept there. A SQLite store is one process's (docs/operators.md): its own limiter is the key's.
 */
export function sharedCardBudgetOf(store: BotStore, backgroundShare: number): SharedCardWindow | undefined {
  if (store.engine !== 'postgres') return undefined;
  const perMinute = 120;
  return new SharedCardWindow(store, {
    perMinute,
    windowMs: 60_000,
    backgroundCapacity: Math.max(1, Math.floor(perMinute * backgroundShare)),
  });
}
