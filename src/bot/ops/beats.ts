// The desk's beats: passes on timers, some in every process, some in one process at a time under a leader lease
// of the store (another process takes over when the leader stops or dies). What each beat does is composed in
// src/bot/index.ts; this file only runs them.
import type { Logger } from '../config/logger.js';
import type { Stops } from './stops.js';

/** A pass run every `everyMs`. */
export interface Beat {
  everyMs: number;
  run: () => Promise<unknown>;
}

/** What a store's leader lease offers (BotStore.runAsLeader). */
export interface Leases {
  runAsLeader(
    name: string,
    work: () => () => void,
    opts: { onError: (err: unknown) => void },
  ): { stop(): Promise<void> | void };
}

/** Starts the beats' timers (never keeping the process alive; a failed pass logs itself); returns their stop. */
export function startTimers(beats: readonly Beat[]): () => void {
  const timers = beats.map(({ everyMs, run }) => {
    const timer = setInterval(() => void run().catch(() => undefined), everyMs);
    timer.unref();
    return timer;
  });
  return () => {
    for (const t of timers) clearInterval(t);
  };
}

/** Runs `work` while this process holds the lease `name`; its stop runs when the lease is lost or at shutdown. */
export function whileLeader(
  { stops, logger, leases }: { stops: Stops; logger: Pick<Logger, 'warn'>; leases: Leases },
  name: string,
  work: () => () => void,
): void {
  const run = leases.runAsLeader(name, work, {
    onError: (err) => logger.warn(`${name} leader lease failed; will retry`, { err }),
  });
  stops.push(() => run.stop());
}
