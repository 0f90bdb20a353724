import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from '../config/logger.js';
import type { DeskMetrics } from './metrics.js';

/** How often the drain looks whether the outbox has sent everything. */
const DRAIN_POLL_MS = 100;

/** What a drain closes, waits for and stops. */
export interface DrainParts {
  /** The interactions: closed to new ones, then waited for. */
  intake: { close(): void; readonly inFlight: number; idle(): Promise<void> };
  tracker: { idle(): Promise<void> };
  outbox: { kick(): void; idle(): Promise<void>; pendingCount(): Promise<number> };
  metrics: Pick<DeskMetrics, 'draining'>;
  logger: Pick<Logger, 'info' | 'warn'>;
  /** The bot's stop (leases released). */
  stop: () => Promise<void>;
}

/**
 * SIGTERM's clean stop: new interactions are told the desk is restarting, those under way finish, their results
 * are applied and the outbox sent, for at most graceMs; then the bot stops. True when all of it finished in time;
 * what did not resumes on the next start from the store.
 */
export async function drain(p: DrainParts, graceMs: number): Promise<boolean> {
  p.intake.close();
  p.metrics.draining.set(1);
  p.logger.info('draining: new interactions are refused; finishing those under way', {
    inFlight: p.intake.inFlight,
    graceSeconds: graceMs / 1000,
  });
  const finish = async () => {
    await p.intake.idle();
    await p.tracker.idle();
    for (;;) {
      p.outbox.kick();
      await p.outbox.idle();
      if ((await p.outbox.pendingCount()) === 0) return true;
      await delay(DRAIN_POLL_MS);
    }
  };
  const clean = await Promise.race([finish(), delay(graceMs, false, { ref: false })]);
  if (!clean) p.logger.warn('drain: the grace period ended first; what is left resumes on the next start');
  await p.stop();
  p.metrics.draining.set(0);
  return clean;
}

/**
 * SIGTERM and SIGINT for a process running one bot: the first drains it and exits 0; a second exits at once (1).
 * Nothing is lost either way: bets, jobs and outbox rows are in the store before anything is sent, and the next
 * start resumes them.
 */
export function drainOnSignals(
  bot: { drain(graceMs?: number): Promise<boolean> },
  graceMs?: number,
  log = (line: string) => console.error(line),
) {
  let draining = false;
  const onSignal = (signal: string) => {
    if (draining) {
      log(`${signal} again: exiting now; what is left resumes on the next start`);
      process.exit(1);
    }
    draining = true;
    log(`${signal}: draining (new interactions are refused)…`);
    // Exit 0 either way: the drain stopped the bot in order (leases released); a grace period that ended first
    // only leaves work the next start resumes.
    void bot.drain(graceMs).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));
}
