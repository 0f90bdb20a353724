import { describe, expect, it } from 'vitest';
import { bookLine } from '../../../src/bot/betting/views/compare.js';
import { bookChecks, type EligibilityInput, leftOutText } from '../../../src/bot/catalog/model/eligibility.js';
import type { MarketCard, Session } from '../../../src/gateway/index.js';

const session = (bookie: string, id = `s-${bookie}`, active = true) =>
  ({ session_id: id, bookie, active }) as unknown as Session;

const card = (over: Partial<MarketCard> = {}, slugs = ['home', 'away']) =>
  ({
    bound: true,
    market_ref_betting_enabled: true,
    markets: [
      {
        market: 'head_to_head',
        label: 'Head to Head',
        tier: 'named',
        selections: slugs.map((slug) => ({ slug, label: slug, bettable: true, odds: 2, market_ref: `ref-${slug}` })),
      },
    ],
    ...over,
  }) as unknown as MarketCard;

const input = (over: Partial<EligibilityInput>): EligibilityInput => ({
  books: ['bookie_a'],
  sessions: [session('bookie_a')],
  cards: new Map([['bookie_a', card()]]),
  chosen: {},
  market: 'head_to_head',
  selection: 'home',
  ...over,
});

const why = (over: Partial<EligibilityInput>) =>
  bookChecks(input(over)).map((c) => (c.leftOut ? leftOutText(c.leftOut) : `ok ${c.marketRef}`));

describe('which sessions can take a bet (one rule for best-price /bet, /compare and autocomplete)', () => {
  it('gives an eligible session the selection’s market_ref at its book', () => {
    expect(why({})).toEqual(['ok ref-home']);
  });

  it('keeps a book with no active session, saying so', () => {
    expect(why({ sessions: [session('bookie_a', 's-1', false)] })).toEqual(['no active session']);
  });

  it('reaches a book through the session an admin chose, and says when that session is not active', () => {
    const sessions = [session('bookie_a', 's-1'), session('bookie_a', 's-2')];
    expect(bookChecks(input({ sessions, chosen: { bookie_a: 's-2' } })).map((c) => c.sessionId)).toEqual(['s-2']);
    expect(why({ chosen: { bookie_a: 's-9' } })).toEqual([
      'the session an admin chose for it is not active (/settings session)',
    ]);
  });

  it('says why a book’s markets are missing when its card could not be read', () => {
    const cardErrors = new Map([['bookie_a', 'not_offered: basketball betting is offered by bookie_a only']]);
    expect(why({ cards: new Map(), cardErrors })).toEqual([
      'its markets could not be read (not_offered: basketball betting is offered by bookie_a only)',
    ]);
  });

  it('leaves out a book that does not list the event, the market or the selection, or takes no market_ref bets', () => {
    expect(why({ cards: new Map([['bookie_a', card({ bound: false })]]) })).toEqual(['does not list this event']);
    expect(why({ cards: new Map([['bookie_a', card({ market_ref_betting_enabled: false })]]) })).toEqual([
      'not taking bets on this event',
    ]);
    expect(why({ market: 'total_points' })).toEqual(['does not list total points']);
    expect(why({ selection: 'draw' })).toEqual(['does not list this selection in Head to Head']);
    expect(why({ selection: 'The Draw' })).toEqual(['does not list "The Draw" in Head to Head']);
  });

  it('names a selection another book lists as members read it, never by its code ("home")', () => {
    const named = card({}, ['home']);
    const m = (named.markets[0] as { selections: Array<{ label: string }> }).selections[0];
    if (m) m.label = 'Sacramento Kings';
    const cards = new Map([
      ['bookie_a', card({}, ['away'])],
      ['bookie_b', named],
    ]);
    expect(why({ books: ['bookie_a'], cards })).toEqual(['does not list Sacramento Kings in Head to Head']);
  });
});

describe('a /compare line per book', () => {
  it('says why a book has no price, or why its price cannot be bet, instead of "no price"', () => {
    expect(bookLine({ bookie: 'bookie_b', price: null, why: 'no active session' }, false)).toBe(
      'bookie_b: no active session',
    );
    expect(bookLine({ bookie: 'bookie_c', price: null, error: 'job failed' }, false)).toBe(
      'bookie_c: no live price (job failed)',
    );
    expect(bookLine({ bookie: 'bookie_b', price: 2.5, why: 'not taking bets on this event' }, false)).toBe(
      'bookie_b: 2.50 (cannot bet here: not taking bets on this event)',
    );
    expect(bookLine({ bookie: 'bookie_a', sessionId: 's', marketRef: 'r', price: 2.1 }, true)).toBe(
      '⭐ **bookie_a: 2.10**',
    );
  });
});
