import { describe, expect, it } from 'vitest';
import {
  booksNotTaking,
  classifyRefusal,
  type Evidence,
  HEALTH_RULES,
  NOT_OFFERED_MS,
  notTakingText,
  sessionHealth,
  statedMaximumCents,
  whyNotFor,
} from '../../../src/bot/accounts/model/account-health.js';

const S = 'sess-c';
const NOW = Date.parse('2026-11-20T12:00:00Z');
const DAY = 86_400_000;

function bet(over: Partial<Evidence> & Pick<Evidence, 'kind'>): Evidence {
  return {
    sessionId: S,
    bookie: 'bookie_c',
    at: NOW - DAY,
    sport: 'nfl',
    market: 'head_to_head',
    marketLabel: 'Head-to-head',
    askedCents: 5000,
    acceptedCents: over.kind === 'accepted' ? 5000 : null,
    ...over,
  };
}

const active = { sessionId: S, bookie: 'bookie_c', active: true, status: 'active' };

describe('refusal classes', () => {
  it.each([
    ['max_stake_exceeded: The maximum stake for this bet is $20.00.', 'stake_limit'],
    ['stake_above_limit: the card takes at most $50', 'stake_limit'],
    ['odds_below_target: live price 1.80 is below target_odds 1.90', 'price_change'],
    // The book's offer, not a suspension (issue 45, item 1).
    ['not_offered: basketball betting is offered by bookie_a only, not bookie_c', 'not_offered'],
    ['Market suspended', 'market_suspended'],
    [
      'account_restricted: This account is restricted from placing bets. Please contact customer support.',
      'account_restricted',
    ],
    ['Your account has been suspended', 'account_restricted'],
    ['Session is not active', 'session_inactive'],
    ['insufficient_balance: stake $10.00 is more than the $5.00 available', 'other'],
  ])('%s → %s', (text, cls) => {
    expect(classifyRefusal(text)).toBe(cls);
  });

  it('reads the maximum a book names, in cents', () => {
    expect(statedMaximumCents('max_stake_exceeded: The maximum stake for this bet is $1,250.50.')).toBe(125050);
    expect(statedMaximumCents('odds_below_target: live price 1.80')).toBeUndefined();
  });
});

describe('session health', () => {
  it('is healthy when every recent bet was taken whole', () => {
    const h = sessionHealth(S, 'bookie_c', [bet({ kind: 'accepted' })], NOW, active);
    expect(h.state).toBe('healthy');
    expect(h.largestAcceptedCents).toBe(5000);
  });

  it('is stake-limited at the accepted stake when a bet was taken for less, naming league and market', () => {
    const h = sessionHealth(
      S,
      'bookie_c',
      [bet({ kind: 'accepted', askedCents: 6000, acceptedCents: 2500 })],
      NOW,
      active,
    );
    expect(h.state).toBe('stake-limited');
    expect(h.caps).toEqual([
      expect.objectContaining({ sport: 'nfl', market: 'head_to_head', capCents: 2500, trend: 'first' }),
    ]);
    expect(h.reasons).toEqual(['took at most $25.00 on NFL head-to-head lately']);
  });

  it('reads the cap from a stake-limit refusal that names the maximum, and calls a lower one shrinking', () => {
    const evidence = [
      bet({
        kind: 'refused',
        at: NOW - 3 * DAY,
        askedCents: 8000,
        errorClass: 'stake_limit',
        errorText: 'max_stake_exceeded: The maximum stake for this bet is $50.00.',
      }),
      bet({
        kind: 'refused',
        at: NOW - DAY,
        askedCents: 4000,
        errorClass: 'stake_limit',
        errorText: 'max_stake_exceeded: The maximum stake for this bet is $25.00.',
      }),
    ];
    const h = sessionHealth(S, 'bookie_c', evidence, NOW, active);
    expect(h.caps[0]).toMatchObject({ capCents: 2500, trend: 'shrinking' });
    expect(h.reasons).toEqual(['took at most $25.00 on NFL head-to-head lately (shrinking)']);
  });

  it('takes the largest smaller stake accepted before a refusal that names no maximum', () => {
    const evidence = [
      bet({ kind: 'accepted', at: NOW - 5 * DAY, acceptedCents: 3000, askedCents: 3000 }),
      bet({ kind: 'accepted', at: NOW - 4 * DAY, acceptedCents: 9000, askedCents: 9000 }),
      bet({
        kind: 'refused',
        at: NOW - DAY,
        askedCents: 7000,
        errorClass: 'stake_limit',
        errorText: 'Stake limit reached',
      }),
    ];
    expect(sessionHealth(S, 'bookie_c', evidence, NOW, active).caps[0]?.capCents).toBe(3000);
  });

  it('forgets limit evidence older than the window', () => {
    const old = bet({ kind: 'accepted', at: NOW - HEALTH_RULES.windowMs - DAY, askedCents: 6000, acceptedCents: 2500 });
    expect(sessionHealth(S, 'bookie_c', [old], NOW, active).state).toBe('healthy');
  });

  it('is restricted after a refusal naming a restriction, until a bet is accepted after it', () => {
    const refused = bet({
      kind: 'refused',
      at: NOW - 2 * DAY,
      errorClass: 'account_restricted',
      errorText: 'account_restricted: This account is restricted',
    });
    expect(sessionHealth(S, 'bookie_c', [refused], NOW, active).state).toBe('restricted');
    const later = bet({ kind: 'accepted', at: NOW - DAY });
    expect(sessionHealth(S, 'bookie_c', [refused, later], NOW, active).state).toBe('healthy');
  });

  it('is offline when the gateway lists the session inactive, whatever else it did', () => {
    const refused = bet({ kind: 'refused', errorClass: 'account_restricted', errorText: 'restricted' });
    const h = sessionHealth(S, 'bookie_c', [refused], NOW, { ...active, active: false, status: 'inactive' });
    expect(h.state).toBe('offline');
    expect(h.reasons).toEqual(['session inactive']);
  });

  it('is offline when its latest start reached no client', () => {
    const start: Evidence = {
      sessionId: S,
      bookie: 'bookie_c',
      kind: 'start',
      at: NOW - 1000,
      status: 'not_delivered',
    };
    expect(sessionHealth(S, 'bookie_c', [start], NOW).state).toBe('offline');
  });

  it('counts refusals over answered bets in 7 and 30 days', () => {
    const evidence = [
      bet({ kind: 'refused', at: NOW - 20 * DAY, errorClass: 'price_change' }),
      bet({ kind: 'accepted', at: NOW - 10 * DAY }),
      bet({ kind: 'refused', at: NOW - 2 * DAY, errorClass: 'price_change' }),
      bet({ kind: 'accepted', at: NOW - DAY }),
    ];
    const h = sessionHealth(S, 'bookie_c', evidence, NOW, active);
    expect([h.refusalRate7d, h.refusalRate30d]).toEqual([0.5, 0.5]);
    expect(h.lastBetAt).toBe(NOW - DAY);
    expect(sessionHealth(S, 'bookie_c', [evidence[0] as Evidence], NOW, active).refusalRate7d).toBeNull();
  });
});

describe('routing rule', () => {
  const limited = sessionHealth(
    S,
    'bookie_c',
    [bet({ kind: 'accepted', askedCents: 6000, acceptedCents: 2500 })],
    NOW,
    active,
  );

  it('leaves a stake-limited session out only for a stake above its cap on that market', () => {
    expect(whyNotFor(limited, { sport: 'nfl', market: 'head_to_head', stakeCents: 2501 })).toBe(
      'took at most $25.00 on NFL head-to-head lately',
    );
    expect(whyNotFor(limited, { sport: 'nfl', market: 'head_to_head', stakeCents: 2500 })).toBeNull();
    expect(whyNotFor(limited, { sport: 'nfl', market: 'totals', stakeCents: 9000 })).toBeNull();
  });

  it('leaves restricted and offline sessions out at any stake', () => {
    const restricted = sessionHealth(
      S,
      'bookie_c',
      [bet({ kind: 'refused', errorClass: 'account_restricted', errorText: 'restricted' })],
      NOW,
      active,
    );
    expect(whyNotFor(restricted, { sport: 'nfl', market: 'head_to_head', stakeCents: 100 })).toBe(
      'restricted by the book',
    );
    const offline = sessionHealth(S, 'bookie_c', [], NOW, { ...active, active: false, status: 'inactive' });
    expect(whyNotFor(offline, { sport: 'nfl', market: 'head_to_head', stakeCents: 100 })).toBe('session inactive');
  });
});

describe('a book that refuses a sport (decision 1996)', () => {
  const refusal = (over: Partial<Evidence>): Evidence => ({
    sessionId: S,
    bookie: 'bookie_c',
    kind: 'not_offered',
    at: NOW - DAY,
    sport: 'basketball',
    errorClass: 'not_offered',
    errorText: 'not_offered: basketball betting is offered by bookie_a only, not bookie_c',
    ...over,
  });

  it('leaves the book out of that sport while the refusal is recent, and not out of another sport', () => {
    const evidence = [refusal({}), refusal({ bookie: 'bookie_b', at: NOW - NOT_OFFERED_MS - 1 })];
    expect([...booksNotTaking(evidence, 'basketball', NOW)]).toEqual(['bookie_c']);
    expect(booksNotTaking(evidence, 'soccer', NOW).size).toBe(0);
    expect(notTakingText('american_football')).toBe('takes no american football bets');
  });

  it('does not count against the account: a session with only such refusals stays healthy, no refusal rate', () => {
    const h = sessionHealth(S, 'bookie_c', [refusal({}), refusal({ at: NOW - 2 * DAY })], NOW, active);
    expect([h.state, h.refusalRate7d]).toEqual(['healthy', null]);
  });
});
