// Control routes for simulated bookmaker limits (control mode only): a stake limit per sport on a session's
// bookmaker account that shrinks as the account wins, and a session the bookmaker has restricted.

import { stakeLimitNow } from '../accounts/stake-limits.js';
import type { Session, StakeLimitRule } from '../accounts/types.js';
import type { Route } from '../core/http.js';
import { isWholeCents } from '../core/money.js';
import { ApiError, ok } from '../core/reply.js';
import type { Sandbox } from '../core/sandbox.js';
import { optionalBool, optionalString, requireInRange, requireString } from './validate.js';

/** Largest limit the control route sets: the ceiling of a sandbox stake. */
const MAX_LIMIT_DOLLARS = 1_000_000;

function sessionOf(sb: Sandbox, body: Record<string, unknown>): Session {
  const id = requireString(body, 'session_id');
  const session = sb.accounts.sessionById(id);
  if (!session) throw new ApiError(404, { detail: `No session '${id}'; see GET /_sandbox/state`, field: 'session_id' });
  return session;
}

function wholeCents(value: number, field: string): number {
  if (!isWholeCents(value)) {
    throw new ApiError(400, { detail: `Field '${field}' must be whole cents (at most 2 decimal places)`, field });
  }
  return value;
}

/** The account's limits as they stand now (each rule with its current, shrunk maximum). */
function limitsView(sb: Sandbox, session: Session) {
  const book = sb.accounts.bookAccountOf(session);
  const bets = sb.ledger.bets();
  return {
    session_id: session.session_id,
    account_id: book.account_id,
    bookie: book.bookie,
    restricted: session.restricted === true,
    limits: (book.stakeLimits ?? []).map((rule) => {
      const now = stakeLimitNow(book, rule.sport, bets);
      return { ...rule, max_stake_now: now?.maxStake ?? rule.max_stake, wins: now?.wins ?? 0 };
    }),
  };
}

export const limitControlRoutes: Route[] = [
  {
    // {session_id, sport, max_stake, shrink_factor?, min_stake?, over_limit?} sets the sport's limit on the session's
    // bookmaker account (every session on it); {session_id, sport, clear: true} removes it.
    method: 'POST',
    path: '/_sandbox/accounts/limits',
    auth: 'none',
    handler: ({ sb, body }) => {
      const session = sessionOf(sb, body);
      const sport = requireString(body, 'sport');
      const book = sb.accounts.bookAccountOf(session);
      const others = (book.stakeLimits ?? []).filter((r) => r.sport !== sport);
      if (optionalBool(body, 'clear') === true) {
        book.stakeLimits = others;
        return ok(limitsView(sb, session));
      }
      const maxStake = wholeCents(
        requireInRange(body, 'max_stake', { min: 0.01, max: MAX_LIMIT_DOLLARS, unit: 'dollars' }),
        'max_stake',
      );
      const shrink =
        body.shrink_factor === undefined ? 0.5 : requireInRange(body, 'shrink_factor', { min: 0.01, max: 1 });
      const minStake =
        body.min_stake === undefined
          ? Math.min(1, maxStake)
          : wholeCents(requireInRange(body, 'min_stake', { min: 0.01, max: maxStake, unit: 'dollars' }), 'min_stake');
      const overLimit = optionalString(body, 'over_limit') ?? 'refuse';
      if (overLimit !== 'refuse' && overLimit !== 'reduce') {
        throw new ApiError(400, {
          detail: `Field 'over_limit' must be 'refuse' (max_stake_exceeded) or 'reduce' (taken for the limit), got '${overLimit}'`,
          field: 'over_limit',
        });
      }
      const rule: StakeLimitRule = {
        sport,
        max_stake: maxStake,
        shrink_factor: shrink,
        min_stake: minStake,
        over_limit: overLimit,
        since: sb.clock.now().toISOString(),
      };
      book.stakeLimits = [...others, rule];
      return ok(limitsView(sb, session));
    },
  },
  {
    method: 'GET',
    path: '/_sandbox/accounts/limits',
    auth: 'none',
    handler: ({ sb, query }) => ok(limitsView(sb, sessionOf(sb, { session_id: query.get('session_id') ?? undefined }))),
  },
  {
    // {session_id, restricted?}: the bookmaker restricts (default) or lifts the restriction on the session.
    method: 'POST',
    path: '/_sandbox/accounts/restrict',
    auth: 'none',
    handler: ({ sb, body }) => {
      const session = sessionOf(sb, body);
      session.restricted = optionalBool(body, 'restricted') ?? true;
      return ok(limitsView(sb, session));
    },
  },
];
