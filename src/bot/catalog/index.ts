export { booksLeftOut, listingLeftOut, type SportRefusals } from './book-offer.js';
export { type CardRef, cardOf, loadCardRef } from './card-ref.js';
export { CardLimitRefusal, type Catalog } from './catalog.js';
export { upcomingWindow } from './handlers/choices.js';
export type { CatalogDeps } from './handlers/deps.js';
export { fairFromCards } from './model/card-fair.js';
export {
  type BookPrice,
  bestOf,
  comparableMarket,
  MAX_SELECTIONS,
  type SelectionComparison,
  selectionKey,
  selectionMatches,
} from './model/compare.js';
export { anyMarket, type BookCheck, balanceShort, bookChecks, leftOutText } from './model/eligibility.js';
export { getRef, ownerOf, putRef, type RefOwner } from './refs.js';
export { cardView, marketView, stakeFormTitle } from './views/card.js';
