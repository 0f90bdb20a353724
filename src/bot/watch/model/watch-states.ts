/**
 * A watch's life and its episodes' as tables (issue 44): every move names where it may come from and where it goes,
 * and every read asks by a named set, never a literal (test/unit/architecture/state-literals.test.ts).
 */
export type WatchState = 'active' | 'removed';
export type EpisodeState = 'open' | 'closed';

export const WATCH_MOVES = {
  /** /watch (or a server rule) adds it. */
  add: { from: [], to: 'active' },
  /** Its member (or an admin, for a server watch) removes it; its prices go with the sweep. */
  remove: { from: ['active'], to: 'removed' },
} as const satisfies Record<string, { from: readonly WatchState[]; to: WatchState }>;

export const EPISODE_MOVES = {
  /** A crossing alerted: until it closes, the same crossing does not alert again. A later episode reopens it. */
  open: { from: ['closed'], to: 'open' },
  /** The price left the band: the next crossing may alert. */
  close: { from: ['open'], to: 'closed' },
} as const satisfies Record<string, { from: readonly EpisodeState[]; to: EpisodeState }>;

/** The named sets reads ask by. */
export const WATCH_STATES = {
  active: [WATCH_MOVES.add.to],
  episodeOpen: [EPISODE_MOVES.open.to],
} as const;

export { sqlState, sqlStates } from '../../model/state-sets.js';
