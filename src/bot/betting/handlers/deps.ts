import type { RoutedContext } from '../../discord/command.js';
import type { DiscordPoster } from '../../discord/poster.js';
import type { BettingReads } from '../reads.js';

/** What the betting wing's commands and controls are handed: its services' reads, the logger and the poster. */
export interface BettingDeps extends BettingReads, RoutedContext {
  poster: DiscordPoster;
}
