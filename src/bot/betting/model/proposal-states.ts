/**
 * A proposal's life as data (the way `bet-states.ts` keeps a bet's): every move by the name its callers use, each
 * naming the states it may leave and the state it enters. Pure: the repository applies a row of this table;
 * nothing else writes a proposal's state (decision 1901).
 */

/**
 * A slip above the approval tier. `open` holds its stake against every cap until it is approved (then `placing`,
 * then `placed` or `closed` by the normal Confirm path), rejected, or expired.
 */
export type ProposalState = 'open' | 'placing' | 'placed' | 'closed' | 'rejected' | 'expired';

export interface ProposalTransition {
  /** The states the move may leave (proposing leaves none: it writes the row). */
  from: readonly ProposalState[];
  to: ProposalState;
}

/** Every move of a proposal. */
export const PROPOSAL_MOVES = {
  propose: { from: [], to: 'open' },
  /** The last approval: one caller moves it on to place it through the normal Confirm. */
  startPlacing: { from: ['open'], to: 'placing' },
  /** Confirm threw before its claim: nothing was placed; it stays approved and open. */
  backToOpen: { from: ['placing'], to: 'open' },
  /** Confirm recorded the bet (or found it recorded after a crash). */
  markPlaced: { from: ['placing'], to: 'placed' },
  /** Confirm closed the slip, or the placement was interrupted before the bet was sent: the hold is released. */
  close: { from: ['placing'], to: 'closed' },
  reject: { from: ['open'], to: 'rejected' },
  expire: { from: ['open'], to: 'expired' },
} as const satisfies Record<string, ProposalTransition>;

export type ProposalMove = Exclude<keyof typeof PROPOSAL_MOVES, 'propose'>;

/** The named sets a read of a proposal's state asks by (issue 44): from the table, never a literal elsewhere. */
export const PROPOSAL_STATES = {
  /** Waiting for approvals (it can still be approved, rejected or expire). */
  open: PROPOSAL_MOVES.startPlacing.from,
  /** Its last approval is placing it through Confirm. */
  placing: PROPOSAL_MOVES.markPlaced.from,
} as const satisfies Record<string, readonly ProposalState[]>;

export { sqlStates } from '../../model/state-sets.js';
