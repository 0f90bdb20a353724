import {
  AuthenticationError,
  BadRequestError,
  BettingNotEnabledError,
  ConflictError,
  GatewayError,
  MarketRefBettingDisabledError,
  NetworkError,
  NoSubscriptionError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RequestTimeoutError,
  ServerError,
  SessionNotActiveError,
  SessionNotFoundError,
  SessionNotOwnedError,
  UnprocessableEntityError,
} from '../gateway/errors.js';

/** A refusal the user can act on; its message is shown as is (ephemeral). */
export class UserFacingError extends Error {
  override name = 'UserFacingError';
}

/** Turns any failure into one sentence that says what happened and what to do; never echoes secrets. */
export function userMessage(err: unknown): string {
  if (err instanceof UserFacingError) return err.message;
  if (err instanceof RateLimitError) {
    const s = err.retryAfterMs === undefined ? 'a few' : Math.max(1, Math.ceil(err.retryAfterMs / 1000));
    return `The gateway is rate limiting us. Try again in ${s} seconds.`;
  }
  if (err instanceof SessionNotActiveError) {
    return 'That betting session is not active. Start it from the desk (or pick another session with /settings), then try again.';
  }
  if (err instanceof SessionNotOwnedError || err instanceof SessionNotFoundError) {
    return 'That session does not belong to this desk’s API key. Pick another one with /settings.';
  }
  if (err instanceof NoSubscriptionError)
    return 'The gateway account has no active subscription. Ask the desk owner to renew it.';
  if (err instanceof BettingNotEnabledError)
    return 'Betting is not enabled on this desk’s API key. Ask the desk owner.';
  if (err instanceof PermissionDeniedError)
    return 'The gateway refused this for our API key. Ask the desk owner to check its permissions.';
  if (err instanceof AuthenticationError)
    return 'The gateway did not accept our API key. Ask the desk owner to check GATEWAY_API_KEY.';
  if (err instanceof MarketRefBettingDisabledError) {
    return 'This bookmaker does not take bets by market reference right now. Try another book.';
  }
  if (err instanceof UnprocessableEntityError) return `The gateway refused the request: ${safeDetail(err)}.`;
  if (err instanceof ConflictError)
    return 'The bookmaker links this event to a different match. Pick the event again from /events.';
  if (err instanceof NotFoundError)
    return 'The gateway does not know that event or race (any more). Pick it again from /events.';
  if (err instanceof BadRequestError)
    return `The gateway refused the request as invalid: ${safeDetail(err)}. Check the options.`;
  if (err instanceof ServerError) return 'The gateway is having trouble (server error). Try again in a minute.';
  if (err instanceof RequestTimeoutError || err instanceof NetworkError) {
    return 'The gateway could not be reached. Try again in a minute.';
  }
  if (err instanceof GatewayError) return 'The gateway answered unexpectedly. Try again in a minute.';
  return 'Something went wrong on our side. Try again; if it persists, tell the desk admin.';
}

function safeDetail(err: GatewayError): string {
  const body = (err as { body?: unknown }).body;
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    const text = b.message ?? b.detail ?? b.error;
    if (typeof text === 'string') return text.slice(0, 300);
  }
  return err.message.slice(0, 300);
}
