// How the fund's own posts are worded. The fund service decides what the results channel gets (a strike, the month's
// statement, a scheduled strike held back) and queues it in the outbox through this presenter, which the composition
// builds from src/bot/views/; the service renders nothing itself (decision 1930).

import type { MessageView } from '../model/limits.js';
import type { Contribution, FundMembers, StrikeRecord } from './model/fund-records.js';

export interface FundPresenter {
  /** A strike's post: NAV, units, price, its inputs, and the contributions still waiting for their deposit. */
  strike(s: StrikeRecord, unmatched: readonly Contribution[]): MessageView;
  /** The statement as a month opens (`month` is `2026-11`): every member's units and value at the last strike. */
  monthlyStatement(month: string, members: FundMembers): MessageView;
  /** A scheduled strike not struck (`reason` says why); it is tried again at the next check. */
  strikeHeld(dealingKey: string, reason: string): MessageView;
}
