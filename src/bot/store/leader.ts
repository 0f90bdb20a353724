/**
 * Work that must run in one process at a time (the settlement watcher, a reconciler) runs under a named
 * leader lease. Every process asks; one holds it; the others keep asking, and one of them takes over once
 * the holder stops or dies. The holder checks it still holds the lease and stops its work when it does not.
 */
export interface LeaseBackend {
  /** Takes the lease if free; true when this process holds it now. */
  tryAcquire(): Promise<boolean>;
  /** Still held (and extended, for leases that expire)? false means lost: stop the work. */
  holds(): Promise<boolean>;
  /** Gives the lease up so another process can take it at once. */
  release(): Promise<void>;
}

/** Called when elected; returns what to call when the lease is lost or the run stops. */
export type LeaderWork = () => Promise<StopWork | undefined> | StopWork | undefined;
export type StopWork = () => Promise<void> | void;

export interface LeaderOptions {
  /** How often a follower asks and a leader checks (default 1000 ms). */
  checkMs?: number;
  /** Told about every change (elected / lost) and about errors of the lease itself. */
  onChange?: (leader: boolean) => void;
  onError?: (err: unknown) => void;
}

export interface LeaderRun {
  readonly name: string;
  readonly isLeader: boolean;
  /** Stops asking; a leader stops its work and releases the lease. */
  stop(): Promise<void>;
}

export function runLease(name: string, backend: LeaseBackend, work: LeaderWork, opts: LeaderOptions = {}): LeaderRun {
  const checkMs = opts.checkMs ?? 1000;
  let leader = false;
  let stopped = false;
  let stopWork: StopWork | undefined;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  const demote = async () => {
    leader = false;
    const s = stopWork;
    stopWork = undefined;
    try {
      await s?.();
    } catch (err) {
      opts.onError?.(err);
    }
    opts.onChange?.(false);
  };

  const tick = async () => {
    try {
      if (!leader) {
        if (await backend.tryAcquire()) {
          leader = true;
          opts.onChange?.(true);
          if (stopped) return;
          stopWork = (await work()) ?? undefined;
        }
      } else if (!(await backend.holds())) {
        await demote();
      }
    } catch (err) {
      opts.onError?.(err);
      if (leader && !(await backend.holds().catch(() => false))) await demote();
    }
  };

  const loop = () => {
    if (stopped) return;
    running = tick().finally(() => {
      running = undefined;
      if (!stopped) {
        timer = setTimeout(loop, checkMs);
        timer.unref();
      }
    });
  };
  loop();

  return {
    name,
    get isLeader() {
      return leader;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
      if (leader) await demote();
      await backend.release().catch((err) => opts.onError?.(err));
    },
  };
}
