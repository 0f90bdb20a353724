// Slips nobody confirmed in time lose their buttons. The row stays (a late click is told "expired") until the
// store's sweep removes it.

import type { SlipPayload } from '../model/slip-rules.js';
import type { Outbox } from '../outbox/index.js';
import { RANK } from './model/edit-rank.js';
import type { BetPresenter } from './presenter.js';
import type { ProposalRepo } from './proposals.js';
import type { SlipRepo } from './slips.js';

/** Closes the messages of up to `batch` expired slips; a proposal's slip is left to the proposal's own expiry. */
export async function closeExpiredSlips(
  d: {
    slips: SlipRepo;
    proposals: ProposalRepo;
    outbox: Pick<Outbox, 'edit'>;
    present: Pick<BetPresenter, 'closedSlip'>;
    now: () => number;
  },
  batch = 50,
): Promise<void> {
  for (const slip of await d.slips.expired(d.now(), batch)) {
    // A proposal's slip closes with the proposal (approvals.tick), which shows why.
    if (await d.proposals.bySlip(slip.slipId)) continue;
    if (!slip.messageId) continue;
    const view = d.present.closedSlip(
      slip.payload as SlipPayload,
      'Bet slip expired',
      'Not confirmed in time, so nothing was placed. Make a new slip with /bet.',
    );
    await d.outbox.edit(slip.channelId, slip.messageId, view, RANK.final);
  }
}
