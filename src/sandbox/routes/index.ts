// Every API route, in one list. Each module exports its own Route[]; add a module with one import + one line.
import type { Route } from '../core/http.js';
import { accountPromoRoutes } from './account-promos.js';
import { balanceRoutes } from './balance.js';
import { betStatusRoutes } from './bet-status.js';
import { bettingRoutes } from './betting.js';
import { bonusPromoRoutes } from './bonus-promos.js';
import { eventsRoutes } from './events.js';
import { legacyRoutes } from './legacy-v2.js';
import { marketsRoutes } from './markets.js';
import { placePromoRoutes } from './place-promo.js';
import { sessionPromoSummaryRoutes } from './session-promo-summary.js';
import { sessionRoutes } from './sessions.js';
import { transactionRoutes } from './transactions.js';
import { withdrawRoutes } from './withdraw.js';

const currentRoutes: Route[] = [
  ...sessionRoutes,
  ...betStatusRoutes,
  ...balanceRoutes,
  ...withdrawRoutes,
  ...transactionRoutes,
  ...bonusPromoRoutes,
  ...accountPromoRoutes,
  ...placePromoRoutes,
  ...eventsRoutes,
  ...marketsRoutes,
  ...bettingRoutes,
  ...sessionPromoSummaryRoutes,
];

/** The current routes plus the deprecated v2 ones, which answer by running their v3 successor. */
export const apiRoutes: Route[] = [...currentRoutes, ...legacyRoutes(currentRoutes)];
