import { describe, expect, it } from 'vitest';
import { ReadAllowance } from '../../../src/bot/catalog/read-allowance.js';

const limits = { perMember: 2, total: 3, windowMs: 60_000 };

describe('the autocomplete read allowance', () => {
  it('grants a member a few reads a window and refuses the rest', () => {
    let now = 1_000_000;
    const allowance = new ReadAllowance(limits, () => now);
    expect([allowance.take('m1'), allowance.take('m1'), allowance.take('m1')]).toEqual([true, true, false]);
    now += 30_000;
    expect(allowance.take('m1')).toBe(false);
  });

  it('caps everyone together: a third member is refused once the total is used', () => {
    const now = 1_000_000;
    const allowance = new ReadAllowance(limits, () => now);
    expect([allowance.take('m1'), allowance.take('m2'), allowance.take('m3'), allowance.take('m4')]).toEqual([
      true,
      true,
      true,
      false,
    ]);
  });

  it('grants again once the window has rolled past the earlier reads', () => {
    let now = 1_000_000;
    const allowance = new ReadAllowance(limits, () => now);
    allowance.take('m1');
    allowance.take('m1');
    now += 60_001;
    expect(allowance.take('m1')).toBe(true);
  });

  it('does not count refused asks: a member refused all window long gets reads in the next', () => {
    let now = 1_000_000;
    const allowance = new ReadAllowance(limits, () => now);
    allowance.take('m1');
    allowance.take('m1');
    for (let i = 0; i < 500; i++) {
      now += 100;
      allowance.take('m1');
    }
    now = 1_000_000 + 60_001;
    expect(allowance.take('m1')).toBe(true);
  });
});
