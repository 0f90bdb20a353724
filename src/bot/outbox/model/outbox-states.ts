/**
 * An outbox row's life as a table (issue 44): recorded pending, then done once Discord answered, given up after
 * its hard failures, or folded into an alert summary. Every move and every read names its states here, never as a
 * literal elsewhere (test/unit/architecture/state-literals.test.ts).
 */
import { inStates, sqlState, sqlStates } from '../../model/state-sets.js';

export type OutboxState = 'pending' | 'done' | 'failed' | 'folded';

export const OUTBOX_MOVES = {
  /** A create or an edit is recorded; a later stage of an edit (a higher rank) opens its row again. */
  record: { from: [], to: 'pending' },
  restage: { from: ['pending', 'done', 'failed'], to: 'pending' },
  /** Discord answered the post or the edit of this stage. */
  send: { from: ['pending'], to: 'done' },
  /** A transient failure (or a hard one within its allowance) waits and is tried again. */
  backOff: { from: ['pending'], to: 'pending' },
  /** A hard failure, the last of its allowance: nothing more is tried (a transient failure stays pending). */
  giveUp: { from: ['pending'], to: 'failed' },
  /** An alert a burst folded into its channel's summary post. */
  fold: { from: ['pending'], to: 'folded' },
} as const satisfies Record<string, { from: readonly OutboxState[]; to: OutboxState }>;

/** The named sets reads ask by. */
export const OUTBOX_STATES = {
  /** Still to send (or being sent under a lease). */
  open: [OUTBOX_MOVES.record.to],
  /** Nothing more will be sent for it: the sweep's to clear after a week. */
  closed: [OUTBOX_MOVES.send.to, OUTBOX_MOVES.giveUp.to, OUTBOX_MOVES.fold.to],
} as const satisfies Record<string, readonly OutboxState[]>;

/** The sets and moves as SQL, for the outbox's statements. */
export const OUTBOX_SQL = {
  open: sqlStates(OUTBOX_STATES.open),
  closed: sqlStates(OUTBOX_STATES.closed),
  recorded: sqlState(OUTBOX_MOVES.record.to),
  restaged: sqlState(OUTBOX_MOVES.restage.to),
  sent: sqlState(OUTBOX_MOVES.send.to),
  folded: sqlState(OUTBOX_MOVES.fold.to),
} as const;

/** A row still to send. */
export const isOpen = inStates(OUTBOX_STATES.open);
