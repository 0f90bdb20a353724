import type { BettingReads } from '../betting/index.js';
import type { Ledger } from '../ledger/index.js';
import type { FundService } from './fund-service.js';

/**
 * What the fund wing's services and reports read of the composition (issue 44): the betting wing's part (the fund's
 * bets go through its slips and placement), the fund's service and the ledger; nothing of Discord.
 */
export interface FundReads extends BettingReads {
  fund: FundService;
  ledger: Ledger;
}
