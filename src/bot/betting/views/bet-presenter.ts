// The words of the bet services (src/bot/betting/presenter.ts names what they say): the composition hands this to
// them, so the services decide and the views speak (decision 1930).
import { accountStateNoticeView } from '../../accounts/index.js';
import { placedOtherView, recordView } from './bet-record.js';
import { proposalClosedView, proposalView, reminderView } from './proposal.js';
import { closedSlipView, jobLostView, receiptView } from './slip.js';
import { stackRecordsView } from './stack.js';

export const betViews = {
  closedSlip: closedSlipView,
  receipt: receiptView,
  jobLost: jobLostView,
  record: recordView,
  stack: stackRecordsView,
  placedOther: placedOtherView,
  proposal: proposalView,
  proposalClosed: proposalClosedView,
  reminder: reminderView,
  accountNotice: accountStateNoticeView,
};
