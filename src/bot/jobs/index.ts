export type { JobRecord } from './jobs-repo.js';
export type { ResultTracker } from './result-tracker.js';
export { JOBS_SWEEP } from './sweep-jobs.js';
export { readTransactionsSince } from './transactions.js';
