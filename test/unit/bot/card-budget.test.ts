import { describe, expect, it } from 'vitest';
import { CardBudget, cardLimitMessage } from '../../../src/bot/card-budget.js';

describe('card read budget', () => {
  it('has no wait while the window has free slots', () => {
    const b = new CardBudget(3, 60_000);
    b.record(0);
    b.record(1_000);
    expect(b.waitMs(2_000)).toBe(0);
  });

  it('tells how long until the oldest read of a full window leaves it', () => {
    const b = new CardBudget(2, 60_000);
    b.record(0);
    b.record(10_000);
    expect(b.waitMs(15_000)).toBe(45_000);
    expect(b.waitMs(60_000)).toBe(0);
  });

  it('says to try again in whole seconds, at least one', () => {
    expect(cardLimitMessage(41_200)).toBe("The gateway's card limit is reached; try again in about 42 s.");
    expect(cardLimitMessage(10)).toMatch(/about 1 s\.$/);
  });
});
