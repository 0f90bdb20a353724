// Every button, select menu and modal handler, by `<scope>:<action>` of the v1 custom id (one file per scope).

import type { ComponentHandler } from '../discord/component-handler.js';
import { cardOpen, cardPage, cardPick, marketSelections } from './card.js';
import { COMPARE_COMPONENTS } from './compare.js';
import { eventsPage } from './events.js';
import { PROMO_COMPONENTS } from './promos.js';
import { proposalApprove, proposalReject } from './proposal.js';
import { RACING_COMPONENTS } from './racing.js';
import { slipReprice } from './reprice.js';
import { slipCancel, slipConfirm, slipStake } from './slip.js';

/** Component handlers by `<scope>:<action>` of the v1 custom id. */
export const COMPONENTS: Record<string, ComponentHandler> = {
  'ev:page': eventsPage,
  'card:page': cardPage,
  'card:open': cardOpen,
  'card:sels': marketSelections,
  'card:pick': cardPick,
  'slip:stake': slipStake,
  'slip:confirm': slipConfirm,
  'slip:cancel': slipCancel,
  'prop:approve': proposalApprove,
  'prop:reject': proposalReject,
  ...COMPARE_COMPONENTS,
  'slip:reprice': slipReprice,
  ...RACING_COMPONENTS,
  ...PROMO_COMPONENTS,
};
