import { describe, expect, it } from 'vitest';
import { userMessage } from '../../../src/bot/model/user-errors.js';
import { UserFacingError } from '../../../src/bot/model/user-facing-error.js';
import {
  NetworkError,
  RateLimitError,
  ServerError,
  ServiceUnavailableError,
  SessionNotActiveError,
} from '../../../src/gateway/errors.js';

describe('messages for users', () => {
  it('tells how long to wait on a 429', () => {
    expect(userMessage(new RateLimitError('slow down', { status: 429, retryAfterMs: 4200 }))).toMatch(/in 5 seconds/);
  });

  it('says the gateway is down for 5xx and network failures, with what to do', () => {
    expect(userMessage(new ServerError('boom', { status: 500 }))).toMatch(/Try again in a minute/);
    expect(userMessage(new ServiceUnavailableError('busy', { status: 503 }))).toMatch(/Try again in a minute/);
    expect(userMessage(new NetworkError('refused', { mayHaveReachedServer: false }))).toMatch(/could not be reached/);
  });

  it('explains an inactive session and how to fix it', () => {
    expect(userMessage(new SessionNotActiveError('inactive', { status: 403 }))).toMatch(/not active.*\/settings/);
  });

  it('passes a user-facing refusal through and hides anything unknown', () => {
    expect(userMessage(new UserFacingError('Pick another book.'))).toBe('Pick another book.');
    const hidden = userMessage(new Error('secret internals at /srv/x with key abc'));
    expect(hidden).not.toContain('internals');
    expect(hidden).toMatch(/Try again/);
  });
});
