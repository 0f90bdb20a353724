import type { GatewayClient } from '../gateway/index.js';

/** The part of the gateway client library (src/gateway, docs/contracts.md) the bot uses, in the library's own types. */
export type GatewayPort = Pick<
  GatewayClient,
  | 'sessions'
  | 'balances'
  | 'bets'
  | 'accountPromos'
  | 'promos'
  | 'bonusBets'
  | 'priceChecks'
  | 'transactions'
  | 'markets'
  | 'marketsLimiter'
  | 'events'
  | 'jobs'
  | 'withdrawals'
  | 'close'
>;
