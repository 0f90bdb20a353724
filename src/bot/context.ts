import type { Approvals } from './approvals.js';
import type { BetService } from './bet-service.js';
import type { Catalog } from './catalog.js';
import type { BotConfig } from './config.js';
import type { GatewayPort } from './gateway-port.js';
import type { ResultTracker } from './job-tracker.js';
import type { Logger } from './logger.js';
import type { DiscordPoster } from './poster.js';
import type { JobRepo } from './repos/jobs.js';
import type { BotStore } from './store.js';

/** Everything a command or component handler may use; built once by startBot. */
export interface BotContext {
  config: BotConfig;
  gateway: GatewayPort;
  store: BotStore;
  catalog: Catalog;
  bets: BetService;
  approvals: Approvals;
  tracker: ResultTracker;
  jobs: JobRepo;
  poster: DiscordPoster;
  logger: Logger;
  callbackUrl: string | undefined;
  now: () => number;
}
