// How the bet services' messages are worded. The services decide what happened (a slip expired, a job came back, a
// proposal closed, an account changed state) and hand it to the presenter, which the composition builds from
// src/bot/views/; no service renders or speaks Discord itself (decision 1930).
import type { AccountPresenter } from '../accounts/index.js';
import type { MessageView } from '../model/limits.js';
import type { SlipPayload } from '../model/slip-rules.js';
import type { BetRecord } from './bet-records.js';
import type { Approval, Proposal } from './proposals.js';

export interface BetPresenter extends AccountPresenter {
  /** A slip that can no longer be confirmed: its buttons go, the title and reason say why. */
  closedSlip(slip: SlipPayload, title: string, reason: string): MessageView;
  /** The bookmaker's answer to a placed bet, edited into the slip. */
  receipt(slip: SlipPayload, result: unknown): MessageView;
  /** A bet job the gateway ended without a result. */
  jobLost(slip: SlipPayload, status: string): MessageView;
  /** A bet record's state as its slip message shows it, and the edit's rank; undefined when it shows nothing. */
  record(record: BetRecord): { view: MessageView; rank: number } | undefined;
  /** A stack's records (in its order) as their slip message shows them, and the edit's rank (decision 2010). */
  stack(records: readonly BetRecord[]): { view: MessageView; rank: number } | undefined;
  /** A bet the gateway placed on another selection than its slip showed (`other` says how). */
  placedOther(record: BetRecord, other: string): MessageView;
  proposal(input: {
    proposal: Proposal;
    slip: SlipPayload;
    approvals: Approval[];
    approverRoleId: string | undefined;
  }): MessageView;
  proposalClosed(p: Proposal, slip: SlipPayload, title: string, reason: string): MessageView;
  reminder(p: Proposal, slip: SlipPayload, approverRoleId: string | undefined): MessageView;
}
