// Sandbox time: real time scaled by `speed`, plus whatever tests skip with advance().
// Timers are kept here so that advance() can fire them at once and close() can clear them all.

export interface ClockTimer {
  cancel(): void;
}

interface Pending {
  id: number;
  dueMs: number;
  fn: () => void;
  handle: NodeJS.Timeout | undefined;
}

/** The latest time a Date can hold (±8.64e15 ms): beyond it every date the sandbox writes would be invalid. */
const MAX_DATE_MS = 8.64e15;

function checkTime(ms: number): void {
  if (!Number.isFinite(ms) || Math.abs(ms) > MAX_DATE_MS) {
    throw new RangeError(`sandbox time must stay a valid date (within ±${MAX_DATE_MS} ms of 1970), got ${ms}`);
  }
}

export class SandboxClock {
  readonly speed: number;
  private readonly startSandboxMs: number;
  private readonly startRealMs: number;
  private offsetMs = 0;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners: ((now: Date) => void)[] = [];
  private stopped = false;

  constructor(opts: { start?: Date; speed?: number } = {}) {
    const speed = opts.speed ?? 1;
    if (!Number.isFinite(speed) || speed <= 0) throw new Error(`clock speed must be a positive number, got ${speed}`);
    this.speed = speed;
    this.startSandboxMs = (opts.start ?? new Date()).getTime();
    this.startRealMs = Date.now();
  }

  /** The sandbox time the clock started at. */
  get startMs(): number {
    return this.startSandboxMs;
  }

  nowMs(): number {
    return this.startSandboxMs + (Date.now() - this.startRealMs) * this.speed + this.offsetMs;
  }

  now(): Date {
    return new Date(this.nowMs());
  }

  /** Today's date in UTC, YYYY-MM-DD. */
  today(): string {
    return this.now().toISOString().slice(0, 10);
  }

  /** Real milliseconds that `sandboxMs` of sandbox time take at this speed. */
  toRealMs(sandboxMs: number): number {
    return Math.max(0, sandboxMs / this.speed);
  }

  /**
   * Moves sandbox time forward. Timers that come due fire at once, in due order, each seeing the clock at its
   * own due time (so a timer it schedules lands where it would have in real time); then listeners run.
   */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new Error(`advance needs a non-negative number of ms, got ${ms}`);
    const target = this.nowMs() + ms;
    checkTime(target);
    for (;;) {
      const next = this.nextDue(target);
      if (!next) break;
      this.moveTo(next.dueMs);
      this.fire(next.id);
    }
    this.moveTo(target);
    const now = this.now();
    for (const fn of this.listeners) fn(now);
  }

  /**
   * Sets sandbox time to `ms`, backwards too (snapshot restore). Pending timers keep their remaining delay, so
   * nothing fires early or late relative to the new time.
   */
  setNow(ms: number): void {
    checkTime(ms);
    const delta = ms - this.nowMs();
    this.offsetMs += delta;
    for (const entry of this.pending.values()) entry.dueMs += delta;
  }

  onAdvance(fn: (now: Date) => void): void {
    this.listeners.push(fn);
  }

  /** Runs `fn` after `delaySandboxMs` of sandbox time: delay/speed real ms, or at once when advance() passes it. */
  schedule(delaySandboxMs: number, fn: () => void): ClockTimer {
    const id = this.nextId++;
    const entry: Pending = { id, dueMs: this.nowMs() + Math.max(0, delaySandboxMs), fn, handle: undefined };
    if (this.stopped) return { cancel: () => {} };
    this.pending.set(id, entry);
    entry.handle = setTimeout(() => this.fire(id), this.toRealMs(delaySandboxMs));
    return { cancel: () => this.cancel(id) };
  }

  /** Real-time sleep of `sandboxMs` sandbox time (for request latency); resolves early when the clock stops. */
  sleep(sandboxMs: number): Promise<void> {
    return new Promise((resolve) => {
      this.schedule(sandboxMs, resolve);
      if (this.stopped) resolve();
    });
  }

  /** Clears every timer; later schedule() calls never fire. */
  stop(): void {
    this.stopped = true;
    for (const entry of this.pending.values()) clearTimeout(entry.handle);
    this.pending.clear();
  }

  get pendingTimers(): number {
    return this.pending.size;
  }

  private cancel(id: number): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    clearTimeout(entry.handle);
    this.pending.delete(id);
  }

  private fire(id: number): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.pending.delete(id);
    clearTimeout(entry.handle);
    entry.fn();
  }

  /** Earliest pending timer due at or before `limitMs`. */
  private nextDue(limitMs: number): Pending | undefined {
    let next: Pending | undefined;
    for (const entry of this.pending.values()) {
      if (entry.dueMs <= limitMs && (!next || entry.dueMs < next.dueMs)) next = entry;
    }
    return next;
  }

  /** Shifts the offset so that now is `ms` (never backwards). */
  private moveTo(ms: number): void {
    const delta = ms - this.nowMs();
    if (delta > 0) this.offsetMs += delta;
  }
}
