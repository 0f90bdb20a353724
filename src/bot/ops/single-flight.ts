/**
 * One in-flight promise per key: concurrent callers asking for the same thing share one load instead of
 * each calling the gateway (200 users opening the same card cost one request, not 200).
 */
export class SingleFlight {
  private readonly inFlight = new Map<string, Promise<unknown>>();

  run<T>(key: string, load: () => Promise<T>): Promise<T> {
    const running = this.inFlight.get(key);
    if (running) return running as Promise<T>;
    const started = load().finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, started);
    return started;
  }

  /** The load of `key` that is running, if any (to wait on it without starting one). */
  pending(key: string): Promise<unknown> | undefined {
    return this.inFlight.get(key);
  }

  /** Whether a load of `key` is running. */
  has(key: string): boolean {
    return this.inFlight.has(key);
  }

  get size(): number {
    return this.inFlight.size;
  }
}

/** Work run one pass at a time (a watcher's tick): a call while a pass runs shares that pass. */
export interface SinglePass<T> {
  run(): Promise<T>;
  /**
   * A pass that begins after this call: one already running may have read what it works on before the caller's
   * change, so it is waited out first, and the call then starts a pass or shares one begun since.
   */
  runFresh(): Promise<T>;
  /** Resolves when the pass in progress, if any, has ended, however it ended (for stop()). */
  settled(): Promise<void>;
}

export function singlePass<T>(pass: () => Promise<T>): SinglePass<T> {
  let running: Promise<T> | undefined;
  return {
    run() {
      running ??= pass().finally(() => {
        running = undefined;
      });
      return running;
    },
    async runFresh() {
      await this.settled();
      return this.run();
    },
    async settled() {
      await running?.catch(() => undefined);
    },
  };
}
