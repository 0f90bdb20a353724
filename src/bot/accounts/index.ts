export { recordBalanceEvidence } from './account-evidence.js';
export type { AccountHealth, AccountPresenter } from './account-health.js';
export { classifyRefusal, notTakingText } from './model/account-health.js';
export { accountOf, chosenSession, sessionFor } from './sessions.js';
export { accountStateNoticeView } from './views/accounts.js';
