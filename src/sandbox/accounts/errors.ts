// The spec's auth and session error bodies, in one place.
import { ApiError } from '../core/reply.js';

export const INVALID_KEY = { detail: 'Invalid or missing API key' };
export const NO_PERMISSION = { detail: 'API key does not have permission for this operation' };
export const NO_SUBSCRIPTION = { detail: 'No valid subscription' };
export const BETTING_NOT_ENABLED = { detail: 'Betting is not enabled for this API key', error: 'betting_not_enabled' };
export const SESSION_NOT_FOUND = 'Session not found or has expired';
export const SESSION_NOT_ACTIVE = 'Session is not active';

/** 'detail': `{detail}` bodies (most endpoints); 'session-op': `{status: 'error', message}` (start/restart/stop). */
export type ErrorStyle = 'detail' | 'session-op';

function body(style: ErrorStyle, message: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return style === 'session-op' ? { status: 'error', message, ...extra } : { detail: message, ...extra };
}

export const sessionNotFound = (style: ErrorStyle) => new ApiError(404, body(style, SESSION_NOT_FOUND));
export const sessionNotActive = (style: ErrorStyle) => new ApiError(403, body(style, SESSION_NOT_ACTIVE));
export const sessionNotOwned = (style: ErrorStyle) =>
  new ApiError(
    403,
    style === 'session-op'
      ? { status: 'error', error: 'session_not_owned', message: 'Session belongs to another account' }
      : { error: 'session_not_owned', detail: 'Session belongs to another account' },
  );
