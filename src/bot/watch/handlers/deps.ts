import type { BettingDeps } from '../../betting/index.js';
import type { WatchEngine } from '../engine.js';

/**
 * What the watch wing's commands and controls are handed (issue 44): the betting wing's part (an alert's Bet button
 * makes a slip) and the watch engine; the composition's context has every field.
 */
export interface WatchDeps extends BettingDeps {
  watch: WatchEngine;
}
