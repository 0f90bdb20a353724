import { describe, expect, it } from 'vitest';
import {
  type APIError,
  AuthenticationError,
  BadRequestError,
  BettingNotEnabledError,
  DeprecatedEndpointError,
  EventNotFoundError,
  errorFromResponse,
  InvalidTierError,
  MarketNotSupportedError,
  MarketRefBettingDisabledError,
  NoSubscriptionError,
  NotFoundError,
  PermissionDeniedError,
  PromoNotFoundError,
  PromoNotPlaceableError,
  RaceNotFoundError,
  RateLimitError,
  ServerError,
  ServiceUnavailableError,
  SessionNotActiveError,
  SessionNotFoundError,
  SessionNotOwnedError,
  SiteEventIdConflictError,
} from '../../../src/gateway/index.js';

const map = (
  status: number,
  body: unknown,
  path = '/v3/place_bet',
  extra: { retryAfterMs?: number; correlationId?: string } = {},
) => errorFromResponse({ status, body, method: 'POST', path, ...extra });

describe('one error class per row of the spec error table', () => {
  const rows: [string, number, unknown, string, new (...a: never[]) => APIError][] = [
    [
      '400 each_way on place_bet',
      400,
      { error: 'market not supported', market: 'each_way' },
      '/v3/place_bet',
      MarketNotSupportedError,
    ],
    [
      '400 price_check without session_ids',
      400,
      { error: 'session_ids is required' },
      '/v3/price_check',
      BadRequestError,
    ],
    [
      '400 stop_session without session_id',
      400,
      { status: 'error', message: 'session_id is required' },
      '/v3/stop_session',
      BadRequestError,
    ],
    ['401 bad key', 401, { detail: 'Invalid or missing API key' }, '/api/session_ids', AuthenticationError],
    [
      '403 permission',
      403,
      { detail: 'API key does not have permission for this operation' },
      '/v3/place_bet',
      PermissionDeniedError,
    ],
    ['403 no subscription', 403, { detail: 'No valid subscription' }, '/api/start_session', NoSubscriptionError],
    ['403 session not owned', 403, { error: 'session_not_owned' }, '/v3/place_bet', SessionNotOwnedError],
    ['403 session not active', 403, { detail: 'Session is not active' }, '/v3/place_bet', SessionNotActiveError],
    [
      '403 betting not enabled',
      403,
      { detail: 'Betting not enabled for this API key' },
      '/v3/place_promo',
      BettingNotEnabledError,
    ],
    ['404 session not found', 404, { detail: 'Session not found or has expired' }, '/v3/balance', SessionNotFoundError],
    ['404 race not found', 404, { error: 'race_not_found' }, '/v3/price_check', RaceNotFoundError],
    ['404 promo not held', 404, { detail: 'promo not found' }, '/v3/place_promo', PromoNotFoundError],
    ['404 unknown epk', 404, { detail: 'unknown epk' }, '/v3/markets', EventNotFoundError],
    ['404 other', 404, {}, '/v3/other', NotFoundError],
    ['409 site_event_id conflict', 409, { error: 'site_event_id_conflict' }, '/v3/place_bet', SiteEventIdConflictError],
    [
      '410 deprecated',
      410,
      { error: 'deprecated', use: 'POST /v3/place_bet' },
      '/v2/place_bet',
      DeprecatedEndpointError,
    ],
    [
      '422 unknown tier',
      422,
      { detail: 'unknown tier', valid_tiers: ['popular', 'other', 'unmapped'] },
      '/v3/markets',
      InvalidTierError,
    ],
    [
      '422 market_ref disabled',
      422,
      { detail: 'market_ref betting disabled' },
      '/v3/place_bet',
      MarketRefBettingDisabledError,
    ],
    ['422 promo not active', 422, { detail: 'promo used' }, '/v3/place_promo', PromoNotPlaceableError],
    ['429 markets', 429, { detail: 'rate limited' }, '/v3/markets', RateLimitError],
    ['503 markets', 503, { detail: 'temporarily unavailable' }, '/v3/markets', ServiceUnavailableError],
    ['500 internal', 500, { status: 'error', message: 'internal' }, '/v3/balance', ServerError],
  ];
  for (const [name, status, body, path, cls] of rows) {
    it(`maps ${name} to ${cls.name}`, () => {
      const err = map(status, body, path);
      expect(err).toBeInstanceOf(cls);
      expect(err.name).toBe(cls.name);
      expect(err.status).toBe(status);
      expect(err.body).toEqual(body);
      expect(err.path).toBe(path);
    });
  }

  it('carries the successor of a deprecated route, the valid tiers, and Retry-After', () => {
    expect(
      (map(410, { error: 'deprecated', use: 'POST /v3/place_bet' }, '/v2/place_bet') as DeprecatedEndpointError).use,
    ).toBe('POST /v3/place_bet');
    const tiers = map(422, { valid_tiers: ['popular', 'other', 'unmapped'] }, '/v3/markets') as InvalidTierError;
    expect(tiers.validTiers).toEqual(['popular', 'other', 'unmapped']);
    expect(tiers.message).toMatch(/popular, other, unmapped/);
    expect((map(429, {}, '/v3/markets', { retryAfterMs: 3000 }) as RateLimitError).retryAfterMs).toBe(3000);
  });

  it('keeps the correlation id and says what to do in the message', () => {
    const err = map(403, { detail: 'No valid subscription' }, '/v3/place_bet', { correlationId: 'c-9' });
    expect(err.correlationId).toBe('c-9');
    expect(err.message).toMatch(
      /POST \/v3\/place_bet failed with 403: No valid subscription\. Activate a subscription/,
    );
    expect(map(400, { error: 'market not supported', market: 'each_way' }).message).toMatch(/'win' or 'place'/);
  });

  it('reads a non-JSON body as text', () => {
    const err = map(502, '<html>bad gateway</html>', '/v3/balance');
    expect(err).toBeInstanceOf(ServerError);
    expect(err.message).toContain('bad gateway');
  });
});
