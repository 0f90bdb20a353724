/**
 * How many card reads autocomplete may start in any rolling window: a few per member and a bounded number in all
 * (decision 1610). A member's explicit reads (/markets, /bet) never count here.
 */
export interface ReadAllowanceLimits {
  /** Reads one member's typing may start per window. */
  perMember: number;
  /** Reads everyone's typing may start per window. */
  total: number;
  windowMs: number;
}

/** 4 per member and 12 in all a minute: a tenth of the gateway's 120 card reads a minute. */
export const AUTOCOMPLETE_READS: ReadAllowanceLimits = { perMember: 4, total: 12, windowMs: 60_000 };

/** Rolling-window counts, per member and in all; a refused ask costs nothing and is never queued. */
export class ReadAllowance {
  readonly #all: number[] = [];
  readonly #byMember = new Map<string, number[]>();

  constructor(
    readonly limits: ReadAllowanceLimits = AUTOCOMPLETE_READS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one read for `member` and answers true, or answers false when either allowance is used up. */
  take(member: string): boolean {
    const now = this.now();
    const edge = now - this.limits.windowMs;
    drop(this.#all, edge);
    const mine = this.#byMember.get(member) ?? [];
    drop(mine, edge);
    if (this.#all.length >= this.limits.total || mine.length >= this.limits.perMember) return false;
    this.#all.push(now);
    mine.push(now);
    this.#byMember.set(member, mine);
    // Only granted reads add members, at most `total` a window: sweep the idle ones now and then.
    if (this.#byMember.size > 4 * this.limits.total) this.#sweep(edge);
    return true;
  }

  #sweep(edge: number): void {
    for (const [member, times] of this.#byMember) {
      drop(times, edge);
      if (times.length === 0) this.#byMember.delete(member);
    }
  }
}

function drop(times: number[], edge: number): void {
  while (times.length > 0 && times[0]! <= edge) times.shift();
}
