export { FundRepo } from './fund-repo.js';
export { matchSessionDeposits, withdrawalStatus } from './fund-service.js';
export type { FundDeps } from './handlers/deps.js';
export { fundEntryMismatches } from './model/fund-checks.js';
export { accountName } from './model/fund-records.js';
