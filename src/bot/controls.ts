// Every button, select menu and modal handler, by `<scope>:<action>` of the v1 custom id (one file per scope).

import { postBestPriceSlip } from './betting/handlers/best-price.js';
import { cardOpen, cardPage, cardPick, marketSelections } from './betting/handlers/card.js';
import { COMPARE_COMPONENTS } from './betting/handlers/compare.js';
import { PROMO_COMPONENTS } from './betting/handlers/promos.js';
import { proposalApprove, proposalReject } from './betting/handlers/proposal.js';
import { RACING_COMPONENTS } from './betting/handlers/racing.js';
import { slipReprice } from './betting/handlers/reprice.js';
import { slipCancel, slipConfirm, slipStake } from './betting/handlers/slip.js';
import { slipStackAdd, slipStackForm } from './betting/handlers/stack.js';
import { eventBook, eventPick, eventsPage } from './catalog/handlers/events.js';
import type { BotContext } from './context.js';
import { buttonRoute, type ComponentRoute, modalRoute, selectRoute } from './discord/component-handler.js';
import { FUND_COMPONENTS } from './fund/handlers/fund.js';
import { watchComponents } from './watch/handlers/watch.js';

/** Component handlers by `<scope>:<action>` of the v1 custom id, each with the kind of interaction it takes. */
export const COMPONENTS: Record<string, ComponentRoute<BotContext>> = {
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
  'slip:stack': buttonRoute(slipStackForm),
  'slip:stackadd': modalRoute(slipStackAdd),
  'prop:approve': buttonRoute(proposalApprove),
  'prop:reject': buttonRoute(proposalReject),
  ...COMPARE_COMPONENTS,
  'slip:reprice': buttonRoute(slipReprice),
  ...RACING_COMPONENTS,
  ...PROMO_COMPONENTS,
  ...FUND_COMPONENTS,
  ...watchComponents(postBestPriceSlip),
};
