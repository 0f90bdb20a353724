import type { AccountHealth } from './accounts/account-health.js';
import type { Approvals } from './betting/approvals.js';
import type { BankSource } from './betting/bank.js';
import type { BetRecordRepo } from './betting/bet-records.js';
import type { BetResults } from './betting/bet-results.js';
import type { RiskAtConfirm } from './betting/handlers/bet-gate.js';
import type { Placement } from './betting/placement.js';
import type { ProposalRepo } from './betting/proposals.js';
import type { SlipFactory } from './betting/slip-factory.js';
import type { SlipRepo } from './betting/slips.js';
import type { Catalog, CatalogDeps } from './catalog/index.js';
import type { BotConfig } from './config/config.js';
import type { Logger } from './config/logger.js';
import type { Command as DiscordCommand } from './discord/command.js';
import type { DiscordPoster } from './discord/poster.js';
import type { FundService } from './fund/fund-service.js';
import type { FundDeps } from './fund/index.js';
import type { GatewayPort } from './gateway-port.js';
import type { JobRepo } from './jobs/jobs-repo.js';
import type { ResultTracker } from './jobs/result-tracker.js';
import type { Ledger } from './ledger/ledger-repo.js';
import type { BotStore } from './store/index.js';
import type { WatchEngine } from './watch/engine.js';
import type { WatchDeps } from './watch/index.js';

/**
 * Everything the commands of commands/ may use; built once by startBot. It has every field each wing's handlers
 * name (their deps, which it extends): a wing's handlers see only their own part.
 */
export interface BotContext extends CatalogDeps, FundDeps, WatchDeps {
  config: BotConfig;
  gateway: GatewayPort;
  store: BotStore;
  catalog: Catalog;
  /** The bet flow: slips made (sessions, prices), then confirmed and sent, then their records shown. */
  slipFactory: SlipFactory;
  placement: Placement;
  /** The bank stakes are sized by (a fund's NAV, else the bank an admin set). */
  bank: BankSource;
  betResults: BetResults;
  approvals: Approvals;
  /** Account health per session: evidence, /accounts, state-change notices, the best-price routing filter. */
  accounts: AccountHealth;
  tracker: ResultTracker;
  jobs: JobRepo;
  /** The repositories, built once: handlers and commands use these, never a `new …Repo(store)` of their own. */
  records: BetRecordRepo;
  slips: SlipRepo;
  proposals: ProposalRepo;
  ledger: Ledger;
  /** The syndicate's bank: contributions, strikes, cash-outs, statements. */
  fund: FundService;
  /** The fund's risk limits, asked by the bet gate at a slip's Confirm. */
  riskAtConfirm: RiskAtConfirm;
  poster: DiscordPoster;
  /** Watches and their alerts: the scheduler (run by the 'watch' leader) and its repository. */
  watch: WatchEngine;
  logger: Logger;
  callbackUrl: string | undefined;
  now: () => number;
}

/** A command of commands/, handed the whole context (the composition's own kind of file). */
export type Command = DiscordCommand<BotContext>;
