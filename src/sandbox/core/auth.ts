// The spec's Authentication rules, in order: key → demo/sample mode → subscription → permission.
import type { IncomingHttpHeaders } from 'node:http';
import type { Accounts } from '../accounts/accounts.js';
import { BETTING_NOT_ENABLED, INVALID_KEY, NO_PERMISSION, NO_SUBSCRIPTION } from '../accounts/errors.js';
import type { Account } from '../accounts/types.js';
import type { Route } from './http.js';
import { ApiError } from './reply.js';

export type AuthOutcome = { mode: 'real'; account: Account } | { mode: 'sample'; account: Account };

/** Placeholder account for routes without auth (control routes). */
export const NO_ACCOUNT: Account = {
  id: 'none',
  key: '',
  name: 'none',
  subscription: false,
  canBet: false,
  sessions: [],
};

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

export function authenticate(route: Route, headers: IncomingHttpHeaders, accounts: Accounts): AuthOutcome {
  const auth = route.auth ?? 'subscription';
  if (auth === 'none') return { mode: 'real', account: NO_ACCOUNT };
  const account = accounts.byApiKey(header(headers, 'x-api-key'));
  if (!account) throw new ApiError(401, INVALID_KEY);
  if (account.demo) return { mode: 'sample', account };
  if (!account.subscription) {
    if (header(headers, 'x-service-sandbox') === '1') return { mode: 'sample', account };
    if (auth === 'subscription') throw new ApiError(403, NO_SUBSCRIPTION);
  }
  if (route.write && !account.canBet) {
    throw new ApiError(403, route.write === 'betting' ? BETTING_NOT_ENABLED : NO_PERMISSION);
  }
  return { mode: 'real', account };
}
