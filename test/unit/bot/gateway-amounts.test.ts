// The gateway's dollars read into cents once, at the edge (issue 44): a balance's parts and any amount it sends.
import { describe, expect, it } from 'vitest';
import { balanceCents, gatewayCents } from '../../../src/bot/model/gateway-amounts.js';

describe('gateway amounts in cents', () => {
  it('reads dollars to the nearest cent, and an absent or unreadable amount as no money', () => {
    expect([12.5, 0.1 + 0.2, '7.25', null, undefined, 'n/a'].map(gatewayCents)).toEqual([1250, 30, 725, 0, 0, 0]);
  });

  it('takes the cash part of a balance as the balance less its bonus, each read to cents on its own', () => {
    // 10.1 − 0.05 in dollars is 10.049999…; in cents it is exactly 1005.
    expect(balanceCents({ balance: 10.1, bonus_balance: 0.05 })).toEqual({
      balanceCents: 1010,
      bonusCents: 5,
      cashCents: 1005,
      withdrawableCents: 1005,
    });
  });

  it('keeps the withdrawable amount the book states, even when it is less than the cash', () => {
    expect(balanceCents({ balance: 100, bonus_balance: 20, withdrawable_balance: 50 }).withdrawableCents).toBe(5000);
  });
});
