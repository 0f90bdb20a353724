/**
 * The bot's own count of GET /v3/markets reads in a rolling window (the gateway allows 120 a minute per key).
 * The client's limiter queues reads over that limit for up to a minute; this tells in advance how long a new
 * read would wait, so a command can say "try again in N s" instead of hanging.
 */
export class CardBudget {
  readonly #sent: number[] = [];

  constructor(
    readonly perMinute = 120,
    readonly windowMs = 60_000,
  ) {}

  /** Milliseconds until a read sent now would get a slot (0: a slot is free). */
  waitMs(now: number): number {
    this.#expire(now);
    if (this.#sent.length < this.perMinute) return 0;
    const oldest = this.#sent[this.#sent.length - this.perMinute] ?? now;
    return Math.max(0, oldest + this.windowMs - now);
  }

  record(now: number): void {
    this.#sent.push(now);
  }

  #expire(now: number): void {
    const edge = now - this.windowMs;
    while (this.#sent.length > 0 && (this.#sent[0] ?? now) <= edge) this.#sent.shift();
  }
}

/** "try again in about N s", N at least 1. */
export function cardLimitMessage(waitMs: number): string {
  const s = Math.max(1, Math.ceil(waitMs / 1000));
  return `The gateway's card limit is reached; try again in about ${s} s.`;
}
