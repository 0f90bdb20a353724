import type { AsyncEnvelope } from '../../gateway/index.js';
import type { Logger } from '../config/logger.js';
import { JOB_STATES, sqlStates } from '../model/job-states.js';
import type { BotStore } from '../store/index.js';
import type { ResultTracker } from './result-tracker.js';

export interface TakeoverOptions {
  store: BotStore;
  tracker: ResultTracker;
  owner: string;
  leaseMs: number;
  logger: Logger;
  now: () => number;
}

/**
 * While running, takes over pending jobs of processes that stopped renewing their leases (killed, cut off)
 * and tracks them here, so a survivor finishes a dead peer's work without a restart. One UPDATE … RETURNING
 * per pass: two survivors cannot both take the same job.
 */
export function startJobTakeover(o: TakeoverOptions): () => void {
  const pass = async () => {
    const t = o.now();
    const rows = await o.store.query<{ correlation_id: string; envelope: string }>(
      `UPDATE jobs SET owner = ?, lease_until = ?, updated_at = ?
       WHERE state IN ${sqlStates(JOB_STATES.pending)} AND lease_until <= ? AND owner <> ? RETURNING correlation_id, envelope`,
      o.owner,
      t + o.leaseMs,
      t,
      t,
      o.owner,
    );
    if (rows.length > 0) o.logger.info('took over jobs of a stopped process', { jobs: rows.length });
    for (const r of rows) o.tracker.track(JSON.parse(r.envelope) as AsyncEnvelope);
  };
  // Well inside the lease: a dead peer's jobs wait at most about a lease and a half.
  const timer = setInterval(
    () => void pass().catch((err) => o.logger.warn('job takeover pass failed', { err })),
    Math.max(500, Math.floor(o.leaseMs / 2)),
  );
  timer.unref();
  return () => clearInterval(timer);
}
