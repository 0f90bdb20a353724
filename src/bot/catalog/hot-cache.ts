/**
 * A process's short memory in front of the store's shared cache (decision 2135). A bet reads the same cards, the
 * sessions list and its event many times within a second (the slip, its live price, Confirm): measured in figure 6,
 * 28 of the catalog's reads of the store a bet, about 110 KB of JSON, each a round trip, the row's text brought into
 * JS and parsed on the event loop a receipt waits for. The memory keeps a value for at
 * most `ms` and never past the store's own expiry, so another process's newer copy is seen within that; a value it
 * holds is frozen, since every reader shares it.
 */
export class HotCache {
  readonly #entries = new Map<string, { value: unknown; until: number }>();
  /** Lets go of lapsed values a span after the last was kept, so an idle desk holds none (figure 7's memory). */
  #sweep: NodeJS.Timeout | undefined;

  constructor(
    private readonly ms: number,
    private readonly max: number,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  get<T>(key: string): T | undefined {
    const e = this.#entries.get(key);
    if (!e) return undefined;
    if (e.until <= this.clock()) {
      this.#entries.delete(key);
      return undefined;
    }
    return e.value as T;
  }

  /** Keeps `value` (frozen in place) for the shorter of the memory's span and `ttlMs`; the value. */
  set<T>(key: string, value: T, ttlMs = Number.POSITIVE_INFINITY): T {
    this.#entries.delete(key);
    if (value === undefined || value === null || !(ttlMs > 0)) return value;
    if (this.#entries.size >= this.max) this.#prune();
    this.#entries.set(key, { value: deepFreeze(value), until: this.clock() + Math.min(this.ms, ttlMs) });
    this.#sweepLater();
    return value;
  }

  /** Forgets one key, or everything (the store's copy was changed behind this process's back). */
  forget(key?: string): void {
    if (key === undefined) this.#entries.clear();
    else this.#entries.delete(key);
  }

  get size(): number {
    return this.#entries.size;
  }

  #sweepLater(): void {
    if (this.#sweep) return;
    this.#sweep = setTimeout(() => {
      this.#sweep = undefined;
      this.#dropLapsed();
      if (this.#entries.size > 0) this.#sweepLater();
    }, this.ms + 1);
    this.#sweep.unref();
  }

  #dropLapsed(): void {
    const now = this.clock();
    for (const [k, e] of this.#entries) if (e.until <= now) this.#entries.delete(k);
  }

  /** Drops what has lapsed; when nothing has, the oldest kept (a Map iterates in insertion order). */
  #prune(): void {
    this.#dropLapsed();
    if (this.#entries.size < this.max) return;
    const oldest = this.#entries.keys().next();
    if (!oldest.done) this.#entries.delete(oldest.value);
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const v of Object.values(value)) deepFreeze(v);
  return value;
}
