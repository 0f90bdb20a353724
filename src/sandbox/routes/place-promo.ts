// POST /v3/place_promo (async): places a captured bet-boost card by id. Idempotent by idempotency_key.
import type { AccountPromo } from '../accounts/account-promos.js';
import type { LedgerBet, Session } from '../accounts/types.js';
import type { Ctx, Route } from '../core/http.js';
import { ApiError, accepted } from '../core/reply.js';
import { sampleEnvelope } from '../core/samples.js';
import { accountRefusal, type BookmakerRules } from '../world/placement.js';
import { bookmakerRules } from './bookmaker-rules.js';
import { optionalString, requireInt, requireMoney, requireString } from './validate.js';

const MARKET = 'head_to_head';
/** A racing card boosts a runner to win. */
const marketOf = (promo: { kind: string }) => (promo.kind === 'racing' ? 'win' : MARKET);

function idempotencyKey(body: Record<string, unknown>): string | undefined {
  const key = optionalString(body, 'idempotency_key');
  if (key !== undefined && (key.length < 1 || key.length > 200)) {
    throw new ApiError(400, {
      detail: `Field 'idempotency_key' must be 1 to 200 characters, got ${key.length}`,
      field: 'idempotency_key',
    });
  }
  return key;
}

function refuseUnplaceable(promo: AccountPromo, gone: string | null): void {
  if (gone !== null) {
    throw new ApiError(422, { detail: `Promo ${promo.promo_id} is no longer active: ${gone}` });
  }
  if (!promo.placeable_by_id) {
    throw new ApiError(422, {
      detail: `Promo ${promo.promo_id} is not placeable by id: ${promo.not_placeable_reason ?? 'not a captured single bet-boost card'}`,
      how_to_bet: promo.how_to_bet,
    });
  }
}

/** The bookmaker's side: re-reads the card at bet time, checks stake and funds, records the bet. */
function placeWork(ctx: Ctx, session: Session, promoId: number, stake: number, rules?: BookmakerRules) {
  return () => {
    const { sb } = ctx;
    const promo = sb.promos.find(promoId);
    const fail = (error: string) => {
      if (promo) promo.state = 'active'; // nothing was placed: the card stays usable
      return {
        success: false,
        bet_id: null,
        stake,
        promo_id: promoId,
        error,
        bet_result: { success: false, bet_id: null, odds: null, stake, error },
      };
    };
    if (!promo || promo.boosted_odds === undefined)
      return fail('card_gone: the card is no longer offered or no longer boosted');
    if (promo.epk && sb.world.eventStatus(promo.epk) !== 'prematch') {
      return fail('card_gone: the event has started, so the boost is no longer offered');
    }
    const refused = rules ? accountRefusal({ targetOdds: 0, maxOdds: null, rules }, stake) : null;
    if (refused) return fail(refused.error);
    if (promo.max_stake !== undefined && stake > promo.max_stake) {
      return fail(`stake_above_limit: the card takes at most $${promo.max_stake}`);
    }
    if (stake > sb.ledger.available(session.account_id))
      return fail('insufficient_funds: the balance does not cover the stake');
    const bet: LedgerBet = {
      bet_id: sb.promos.nextBetId(promoId),
      session_id: session.session_id,
      account_id: session.account_id,
      bookie: session.bookie,
      stake,
      odds: promo.boosted_odds,
      is_bonus_bet: false,
      placed_at: sb.clock.now().toISOString(),
      selections: [
        {
          event: promo.event ?? promo.label,
          selection: promo.selection ?? '',
          market: marketOf(promo),
          odds: promo.boosted_odds,
          result: 'pending',
        },
      ],
      ...(promo.epk ? { epk: promo.epk } : {}),
      bet_type: 'promo',
      promo_name: 'bet_boost',
    };
    sb.ledger.recordBet(bet);
    return {
      success: true,
      bet_id: bet.bet_id,
      odds: bet.odds,
      stake,
      is_bonus_bet: false,
      bonus_token_id: null,
      market: marketOf(promo),
      runner: promo.selection ?? null,
      promo_id: promoId,
      bet_type: 'promo',
      promo_name: 'bet_boost',
      bet_result: { success: true, bet_id: bet.bet_id, odds: bet.odds, stake, error: null },
    };
  };
}

function readPromoBody(body: Record<string, unknown>) {
  return {
    sessionId: requireString(body, 'session_id'),
    promoId: requireInt(body, 'promo_id'),
    stake: requireMoney(body, 'stake'),
    key: idempotencyKey(body),
    traceId: optionalString(body, 'trace_id') ?? null,
  };
}

export const placePromoRoutes: Route[] = [
  {
    method: 'POST',
    path: '/v3/place_promo',
    write: 'betting',
    async: true,
    check: (ctx) => {
      readPromoBody(ctx.body);
    },
    handler: (ctx) => {
      const { sessionId, promoId, stake, key, traceId } = readPromoBody(ctx.body);
      const { sb } = ctx;
      if (key !== undefined) {
        const first = sb.promos.replay(ctx.account.id, key);
        if (first) return accepted(first);
      }
      const session = sb.accounts.findSession(ctx.account, sessionId, { requireActive: true });
      const promo = sb.promos.find(promoId);
      if (!promo || promo.account_id !== session.account_id) {
        throw new ApiError(404, {
          detail: `Promo ${promoId} is not held by the account of session ${sessionId}; list them with GET /v3/account_promos`,
        });
      }
      refuseUnplaceable(promo, sb.promos.goneReason(promo));
      promo.state = 'used'; // reserved now so a second request cannot take it while the first is in flight
      const envelope = sb.jobs.submit({
        account: ctx.account,
        path: ctx.path,
        session,
        callbackUrl: ctx.body.callback_url,
        extra: { trace_id: traceId, promo_id: promoId },
        work: placeWork(ctx, session, promoId, stake, bookmakerRules(sb, ctx.path, session.session_id)),
      });
      if (key !== undefined) sb.promos.remember(ctx.account.id, key, envelope);
      return accepted(envelope);
    },
    sample: (ctx) =>
      sampleEnvelope(ctx, {
        trace_id: typeof ctx.body?.trace_id === 'string' ? ctx.body.trace_id : null,
        promo_id: typeof ctx.body?.promo_id === 'number' ? ctx.body.promo_id : 1,
      }),
  },
];
