import {
  APIError,
  AuthenticationError,
  BadRequestError,
  BettingNotEnabledError,
  ConflictError,
  DeprecatedEndpointError,
  EventNotFoundError,
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
  UnprocessableEntityError,
} from './errors.js';

export interface ErrorResponse {
  status: number;
  /** Parsed JSON body (already redacted), or the raw text when it was not JSON. */
  body: unknown;
  method: string;
  path: string;
  correlationId?: string | undefined;
  retryAfterMs?: number | undefined;
  /** Response headers, already stripped of the API key. */
  headers?: Readonly<Record<string, string>> | undefined;
  requestId?: string | undefined;
}

const field = (body: unknown, key: string): unknown =>
  body !== null && typeof body === 'object' ? (body as Record<string, unknown>)[key] : undefined;

/** The server's own words, whichever of the spec's body shapes it used. */
export function serverMessage(body: unknown): string {
  if (typeof body === 'string') return body.slice(0, 300);
  for (const key of ['detail', 'message', 'error']) {
    const v = field(body, key);
    if (typeof v === 'string' && v !== '') return v;
  }
  return '';
}

const includes = (text: string, needle: string) => text.toLowerCase().includes(needle);

/** The one place that turns an HTTP error response into a typed error. */
export function errorFromResponse(res: ErrorResponse): APIError {
  const { status, body, method, path } = res;
  const said = serverMessage(body);
  const code = String(field(body, 'error') ?? '');
  const init = {
    status,
    body,
    method,
    path,
    correlationId: res.correlationId,
    headers: res.headers,
    requestId: res.requestId,
  };
  const msg = (hint: string) => `${method} ${path} failed with ${status}${said ? `: ${said}` : ''}. ${hint}`;

  switch (status) {
    case 400:
      if (code === 'market not supported') {
        return new MarketNotSupportedError(msg("Use market 'win' or 'place' (each_way is not offered)."), init);
      }
      return new BadRequestError(msg('Fix the request fields the message names and send again.'), init);
    case 401:
      return new AuthenticationError(
        msg('Check the apiKey given to GatewayClient (missing, invalid or expired).'),
        init,
      );
    case 403:
      if (includes(said, 'no valid subscription')) {
        return new NoSubscriptionError(msg('Activate a subscription for this account, or use sandbox: true.'), init);
      }
      if (code === 'session_not_owned' || includes(said, 'not owned')) {
        return new SessionNotOwnedError(msg('Use a session_id from client.sessions.list() for this key.'), init);
      }
      if (includes(said, 'not active')) {
        return new SessionNotActiveError(msg('Start the session (client.sessions.start) and retry.'), init);
      }
      if (includes(said, 'betting') && (includes(said, 'not enabled') || includes(said, 'disabled'))) {
        return new BettingNotEnabledError(msg('Enable betting on this API key.'), init);
      }
      return new PermissionDeniedError(msg('This key is not allowed to do this.'), init);
    case 404:
      if (code === 'race_not_found')
        return new RaceNotFoundError(msg('Check track, race_num, race_type and date.'), init);
      if (path.startsWith('/v3/markets'))
        return new EventNotFoundError(msg('Use an epk from client.events.list().'), init);
      if (path.startsWith('/v3/place_promo')) {
        return new PromoNotFoundError(
          msg("Use a promo_id from client.accountPromos.list() for the session's account."),
          init,
        );
      }
      if (includes(said, 'session'))
        return new SessionNotFoundError(msg('Use a session_id from client.sessions.list().'), init);
      return new NotFoundError(msg('The resource does not exist.'), init);
    case 409:
      if (code === 'site_event_id_conflict' || includes(said, 'site_event_id')) {
        return new SiteEventIdConflictError(msg('Drop site_event_id: the event is linked to a different match.'), init);
      }
      return new ConflictError(msg('The request conflicts with the current state.'), init);
    case 410: {
      const use = field(body, 'use');
      return new DeprecatedEndpointError(
        msg(typeof use === 'string' ? `Use ${use} instead.` : 'Use the v3 endpoint.'),
        {
          ...init,
          use: typeof use === 'string' ? use : undefined,
        },
      );
    }
    case 422: {
      const tiers = field(body, 'valid_tiers');
      const validTiers = Array.isArray(tiers) ? tiers.map(String) : undefined;
      const init422 = { ...init, validTiers };
      if (validTiers || path.startsWith('/v3/markets')) {
        return new InvalidTierError(
          msg(`Use one of the valid tiers${validTiers ? `: ${validTiers.join(', ')}` : ''}.`),
          init422,
        );
      }
      if (path.startsWith('/v3/place_bet')) {
        return new MarketRefBettingDisabledError(
          msg('market_ref betting is off for this bookmaker: bet by market+selection.'),
          init422,
        );
      }
      if (path.startsWith('/v3/place_promo')) {
        return new PromoNotPlaceableError(msg('The promo is no longer active or not placeable by id.'), init422);
      }
      return new UnprocessableEntityError(msg('The request was understood but refused.'), init422);
    }
    case 429:
      return new RateLimitError(msg('Slow down; retry after the Retry-After delay.'), {
        ...init,
        retryAfterMs: res.retryAfterMs,
      });
    case 503:
      return new ServiceUnavailableError(msg('Temporarily unavailable; retry shortly.'), {
        ...init,
        retryAfterMs: res.retryAfterMs,
      });
    default:
      if (status >= 500)
        return new ServerError(msg('Gateway error; retry later (reads are retried automatically).'), init);
      return new APIError(msg('Unexpected status.'), init);
  }
}
