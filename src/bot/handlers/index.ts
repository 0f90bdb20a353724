// Every button, select menu and modal handler, by `<scope>:<action>` of the v1 custom id (one file per scope).

import { buttonRoute, type ComponentRoute, modalRoute, selectRoute } from '../discord/component-handler.js';
import { cardOpen, cardPage, cardPick, marketSelections } from './card.js';
import { COMPARE_COMPONENTS } from './compare.js';
import { eventBook, eventPick, eventsPage } from './events.js';
import { FUND_COMPONENTS } from './fund.js';
import { PROMO_COMPONENTS } from './promos.js';
import { proposalApprove, proposalReject } from './proposal.js';
import { RACING_COMPONENTS } from './racing.js';
import { slipReprice } from './reprice.js';
import { slipCancel, slipConfirm, slipStake } from './slip.js';
import { WATCH_COMPONENTS } from './watch.js';

/** Component handlers by `<scope>:<action>` of the v1 custom id, each with the kind of interaction it takes. */
export const COMPONENTS: Record<string, ComponentRoute> = {
  'ev:page': buttonRoute(eventsPage),
  'ev:pick': selectRoute(eventPick),
  'ev:book': selectRoute(eventBook),
  'card:page': buttonRoute(cardPage),
  'card:open': selectRoute(cardOpen),
  'card:sels': buttonRoute(marketSelections),
  'card:pick': selectRoute(cardPick),
  'slip:stake': modalRoute(slipStake),
  'slip:confirm': buttonRoute(slipConfirm),
  'slip:cancel': buttonRoute(slipCancel),
  'prop:approve': buttonRoute(proposalApprove),
  'prop:reject': buttonRoute(proposalReject),
  ...COMPARE_COMPONENTS,
  'slip:reprice': buttonRoute(slipReprice),
  ...RACING_COMPONENTS,
  ...PROMO_COMPONENTS,
  ...FUND_COMPONENTS,
  ...WATCH_COMPONENTS,
};
