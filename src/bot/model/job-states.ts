/**
 * A gateway job's life as a table (issue 44), shared by the jobs wing and the webhook receiver below it: pending from its 202, resolved by its first outcome, posted once its
 * message is out. Every move and every read names its states here, never as a literal elsewhere
 * (test/unit/architecture/state-literals.test.ts).
 */
export type JobState = 'pending' | 'resolved' | 'posted';

export const JOB_MOVES = {
  /** The 202 is stored with the job's envelope. */
  record: { from: [], to: 'pending' },
  /** The first outcome wins (poller, webhook or takeover); its message is still to post. */
  resolve: { from: ['pending'], to: 'resolved' },
  /** The first outcome, with its message already recorded in the same transaction (the receipt path). */
  resolvePosted: { from: ['pending'], to: 'posted' },
  /** Its message is out. */
  markPosted: { from: ['pending', 'resolved'], to: 'posted' },
} as const satisfies Record<string, { from: readonly JobState[]; to: JobState }>;

/** The named sets reads ask by. */
export const JOB_STATES = {
  pending: [JOB_MOVES.record.to],
  resolved: [JOB_MOVES.resolve.to],
  posted: [JOB_MOVES.markPosted.to],
} as const;

export { sqlState, sqlStates } from './state-sets.js';
