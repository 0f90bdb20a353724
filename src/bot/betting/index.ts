export {
  type BetRecord,
  BetRecordRepo,
  type FundCapName,
  type FundClaim,
  type FundDecision,
  fundLockKey,
} from './bet-records.js';
export { checkBettable, suggestedStakeFor } from './handlers/bet-gate.js';
export type { BettingDeps } from './handlers/deps.js';
export { postSlip } from './handlers/slip-post.js';
export { minOddsField, readMinOdds, readStake, stakeField } from './handlers/stake-form.js';
export type { RiskBet, RiskCheck } from './model/risk-check.js';
export { sendFailure } from './placement.js';
export type { BettingReads } from './reads.js';
export { matches } from './reconciler.js';
export { type SlipRecord, SlipRepo } from './slips.js';
export { formatEdge } from './views/edge.js';
