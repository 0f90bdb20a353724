// Offline, the embedded sandbox's clock can be moved on (the playground's Sandbox panel). The bot then runs on
// that clock too: the sandbox stamps webhooks with its own time, which a bot on the machine's clock would refuse
// as stale, and "today" in /events should be the sandbox's today.

export interface SandboxClockReading {
  /** The sandbox clock's time, ISO 8601. */
  now: string;
  /** Sandbox milliseconds per real millisecond. */
  speed?: number;
}

const REFRESH_MS = 30_000;

/** Follows the sandbox clock read through its control route (GET /_sandbox/state); `now()` is the bot's clock. */
export class SandboxClock {
  #sandboxMs: number;
  #realMs: number;
  #speed = 1;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly sandboxUrl: string,
    private readonly realNow: () => number = Date.now,
  ) {
    this.#sandboxMs = realNow();
    this.#realMs = this.#sandboxMs;
  }

  readonly now = (): number => this.#sandboxMs + (this.realNow() - this.#realMs) * this.#speed;

  /** Takes a reading (from the control route, or from the playground right after it moved the clock). */
  take(reading: SandboxClockReading): void {
    const ms = Date.parse(reading.now);
    if (!Number.isFinite(ms)) return;
    this.#sandboxMs = ms;
    this.#realMs = this.realNow();
    if (typeof reading.speed === 'number' && reading.speed > 0) this.#speed = reading.speed;
  }

  async refresh(): Promise<void> {
    const res = await fetch(new URL('/_sandbox/state', this.sandboxUrl), { signal: AbortSignal.timeout(10_000) });
    if (!res.ok) throw new Error(`the sandbox answered ${res.status} to GET /_sandbox/state`);
    this.take((await res.json()) as SandboxClockReading);
  }

  /** Reads now and then every 30 s (the clock may be moved by other means than the playground). */
  async start(onError: (err: unknown) => void): Promise<void> {
    await this.refresh();
    this.#timer = setInterval(() => void this.refresh().catch(onError), REFRESH_MS);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}
