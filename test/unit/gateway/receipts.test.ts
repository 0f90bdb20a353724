import { describe, expect, it } from 'vitest';
import { betOutcomeOf } from '../../../src/gateway/index.js';

describe('betOutcomeOf (one reading of place_bet and place_promo results)', () => {
  it('reads a poll result with the receipt nested under bet_result', () => {
    const result = {
      success: true,
      bet_result: { success: true, bet_id: 'B-1', odds: 2.4, stake: 10, error: null },
    };
    expect(betOutcomeOf(result)).toEqual({ placed: true, betId: 'B-1', odds: 2.4, stake: 10 });
  });

  it('reads the flat receipt of the webhook example and of a promo result', () => {
    const result = { success: true, bet_id: 'P-9', odds: 3.1, stake: 5, is_bonus_bet: false, potential_return: 15.5 };
    expect(betOutcomeOf(result)).toEqual({ placed: true, betId: 'P-9', odds: 3.1, stake: 5 });
  });

  it('reports a refusal with the nested error text', () => {
    const result = { success: false, bet_result: { success: false, bet_id: '', error: 'price below target_odds' } };
    expect(betOutcomeOf(result)).toEqual({ placed: false, message: 'price below target_odds' });
  });

  it('reports a flat refusal with its error (a soft miss)', () => {
    const result = { success: false, soft_miss: true, error: 'market_not_carried: head_to_head' };
    expect(betOutcomeOf(result)).toEqual({ placed: false, message: 'market_not_carried: head_to_head' });
  });

  it('lets the nested verdict win when the outer success says true but the receipt says false', () => {
    const result = { success: true, bet_result: { success: false, error: 'suspended' } };
    expect(betOutcomeOf(result)).toMatchObject({ placed: false, message: 'suspended' });
  });

  it('does not count a success without a bet id as placed', () => {
    expect(betOutcomeOf({ success: true })).toEqual({
      placed: false,
      unreadable: true,
      message: 'the gateway reported success without a bet id',
    });
  });

  it('does not count a result that is not an object as placed', () => {
    expect(betOutcomeOf(undefined).placed).toBe(false);
    expect(betOutcomeOf('ok').placed).toBe(false);
  });

  describe("'unreadable': a result that is not a receipt is never a refusal", () => {
    it('marks a result with no success verdict unreadable', () => {
      expect(betOutcomeOf({ bet_id: 'B-1' })).toEqual({
        placed: false,
        unreadable: true,
        message: 'the result carries no success verdict',
      });
    });

    it('marks a result that is not an object unreadable', () => {
      expect(betOutcomeOf(undefined)).toMatchObject({ placed: false, unreadable: true });
      expect(betOutcomeOf(['ok'])).toMatchObject({ placed: false, unreadable: true });
    });

    it('marks a bet_result that is not an object unreadable, even under a failed verdict', () => {
      expect(betOutcomeOf({ success: false, bet_result: 'refused' })).toEqual({
        placed: false,
        unreadable: true,
        message: 'bet_result is not a receipt',
      });
    });

    it('marks a bet_result without its own success verdict unreadable', () => {
      expect(betOutcomeOf({ success: true, bet_result: { bet_id: 'B-2' } })).toEqual({
        placed: false,
        unreadable: true,
        message: 'bet_result carries no success verdict',
      });
    });

    it('leaves a plain refusal readable (no unreadable flag)', () => {
      expect(betOutcomeOf({ success: false, error: 'odds moved' })).not.toHaveProperty('unreadable');
    });
  });
});
