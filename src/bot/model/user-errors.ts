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
  RaceNotFoundError,
  RateLimitError,
  RequestTimeoutError,
  RequestValidationError,
  ServerError,
  SessionNotActiveError,
  SessionNotFoundError,
  SessionNotOwnedError,
  UnprocessableEntityError,
} from '../../gateway/errors.js';
import { UserFacingError } from './user-facing-error.js';

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
    return "That session does not belong to this desk's API key. Pick another one with /settings.";
  }
  if (err instanceof NoSubscriptionError)
    return 'The gateway account has no active subscription. Ask the desk owner to renew it.';
  if (err instanceof BettingNotEnabledError)
    return "Betting is not enabled on this desk's API key. Ask the desk owner.";
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
  if (err instanceof RaceNotFoundError) {
    return `The gateway has no such race (${safeDetail(err)}). Check the track, race number and date, and the race type: greyhound and harness tracks need race_type greyhound or harness.`;
  }
  if (err instanceof NotFoundError)
    return 'The gateway does not know that event or race (any more). Pick it again from /events.';
  if (err instanceof BadRequestError)
    return `The gateway refused the request as invalid: ${safeDetail(err)}. Check the options.`;
  if (err instanceof ServerError) return 'The gateway is having trouble (server error). Try again in a minute.';
  if (err instanceof RequestTimeoutError || err instanceof NetworkError) {
    return 'The gateway could not be reached. Try again in a minute.';
  }
  if (err instanceof RequestValidationError) {
    const issue = err.issues[0];
    return `That request breaks a rule of the gateway (${issue ? `${issue.field} ${issue.message}` : err.message.slice(0, 200)}). Check the options.`;
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

/**
 * A refusal caused by what the member asked for (an unknown race, an invalid option), not by a fault of the
 * desk: logged as a note, without a stack, instead of as an error.
 */
export function isMemberMistake(err: unknown): boolean {
  if (err instanceof UserFacingError || err instanceof RequestValidationError) return true;
  if (err instanceof SessionNotFoundError) return false;
  return (
    err instanceof BadRequestError ||
    err instanceof NotFoundError ||
    err instanceof UnprocessableEntityError ||
    err instanceof ConflictError
  );
}

/**
 * Why a price check gave no live price, in words, with the way on. A bookmaker's refusal names its kind first
 * (`not_offered: …`, `market_not_carried …`, as the spec's soft miss does): the kind is said in words, never shown
 * as a code; anything else may be a suspension.
 */
export function noPriceText(error: unknown, bookie = 'The bookmaker'): string {
  const text = typeof error === 'string' ? error.trim().slice(0, 200) : '';
  const m = /^([a-z]+(?:_[a-z]+)+)\b:?\s*(.*)$/s.exec(text);
  const detail = (m?.[2] ?? '').replace(/\.$/, '');
  const elsewhere =
    'Run /bet again without bookie: and the desk routes it to the best book that takes it, or pick another book.';
  if (m?.[1] === 'not_offered') {
    return `${bookie} does not take this bet${detail ? ` (${detail})` : ''}. ${elsewhere}`;
  }
  if (m?.[1] === 'market_not_carried') {
    return `${bookie} does not carry this market for this event${detail ? ` (${detail})` : ''}. ${elsewhere}`;
  }
  const said = m ? detail : text;
  return `${bookie} gave no live price for this selection${said ? ` (${said})` : ''}. It may be suspended for a moment: try again shortly, or pick another selection or book.`;
}
