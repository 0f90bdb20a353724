export type { JobRecord } from './jobs-repo.js';
export type { ResultTracker } from './result-tracker.js';
export { readTransactionsSince } from './transactions.js';
