import { describe, expect, it } from 'vitest';
import { noPriceText, userMessage } from '../../../src/bot/model/user-errors.js';
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

describe('why a price check gave no price', () => {
  it('says in words that the book does not take the bet, never the raw code, and the way on', () => {
    const text = noPriceText('not_offered: basketball betting is offered by bookie_a only, not bookie_c', 'bookie_c');
    expect(text).toBe(
      'bookie_c does not take this bet (basketball betting is offered by bookie_a only, not bookie_c). Run /bet again without bookie: and the desk routes it to the best book that takes it, or pick another book.',
    );
    expect(text).not.toMatch(/not_offered|suspended/);
  });

  it('names a market the book does not carry, and leaves a plain miss as a possible suspension', () => {
    expect(noPriceText('market_not_carried', 'bookie_b')).toMatch(
      /^bookie_b does not carry this market for this event\. /,
    );
    expect(noPriceText(undefined, 'bookie_a')).toBe(
      'bookie_a gave no live price for this selection. It may be suspended for a moment: try again shortly, or pick another selection or book.',
    );
  });
});
