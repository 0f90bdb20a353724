import type { AccountHealth } from '../accounts/index.js';
import type { Catalog } from '../catalog/index.js';
import type { BotConfig } from '../config/config.js';
import type { GatewayPort } from '../gateway-port.js';
import type { BotStore } from '../store/index.js';
import type { Approvals } from './approvals.js';
import type { BankSource } from './bank.js';
import type { BetRecordRepo } from './bet-records.js';
import type { BetResults } from './bet-results.js';
import type { RiskCheck } from './model/risk-check.js';
import type { Placement } from './placement.js';
import type { ProposalRepo } from './proposals.js';
import type { SlipFactory } from './slip-factory.js';
import type { SlipRepo } from './slips.js';

/**
 * What the betting wing's services read of the composition (issue 44): its own services and the floors and lower
 * wings they use, nothing of a wing above it (the fund's limits come in as the `riskAtConfirm` port) and nothing
 * of Discord (its controls add that: handlers/deps.ts). The composition's context has every field here.
 */
export interface BettingReads {
  config: BotConfig;
  gateway: GatewayPort;
  store: BotStore;
  catalog: Catalog;
  accounts: AccountHealth;
  slipFactory: SlipFactory;
  placement: Placement;
  bank: BankSource;
  betResults: BetResults;
  approvals: Approvals;
  records: BetRecordRepo;
  slips: SlipRepo;
  proposals: ProposalRepo;
  riskAtConfirm: RiskCheck;
  callbackUrl: string | undefined;
  now: () => number;
}
