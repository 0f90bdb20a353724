import type { BettingDeps } from '../../betting/index.js';
import type { FundReads } from '../reads.js';

/** What the fund wing's commands and controls are handed: its services' reads and the betting wing's controls'. */
export interface FundDeps extends FundReads, BettingDeps {}
