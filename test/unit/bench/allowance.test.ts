import { describe, expect, it } from 'vitest';
import { allowanceFor, CORES_USED, CPU_SHARE, checkedAllowance, MIN_SHARE } from '../../../bench/lib/allowance.js';

const costs = { cores: 2, processes: 4, botMs: 3, sharedMs: 3, otherCores: 0 };

describe("figure 22's allowance (decision 2144)", () => {
  it('stays at the full allowance where four processes and their shared work fit in the cores', () => {
    // 4 × 0.2 × (1 + 1/3) = 1.07 cores, under 80 % of 2.
    expect(allowanceFor({ ...costs, sharedMs: 1 })).toBe(CPU_SHARE);
  });

  it('lowers the allowance until the processes and the shared work their confirms cost fit in 80 % of the cores', () => {
    // Each core a process spends keeps 1 + 6.5 / 3.25 = 3 busy: 1.6 / (4 × 3) = 0.1333, in hundredths down.
    const share = allowanceFor({ ...costs, botMs: 3.25, sharedMs: 6.5 });
    expect(share).toBe(0.13);
    expect(4 * share * (1 + 6.5 / 3.25)).toBeLessThanOrEqual(2 * CORES_USED);
  });

  it("leaves out the cores the machine's other work holds", () => {
    // (1.6 - 0.4) / 12 = 0.1.
    expect(allowanceFor({ ...costs, botMs: 3.25, sharedMs: 6.5, otherCores: 0.4 })).toBe(0.1);
  });

  it('never goes below the floor, and keeps the full allowance when the calibration counted no CPU', () => {
    expect(allowanceFor({ ...costs, sharedMs: 300 })).toBe(MIN_SHARE);
    expect(allowanceFor({ ...costs, botMs: 0 })).toBe(CPU_SHARE);
    expect(allowanceFor({ ...costs, sharedMs: Number.NaN })).toBe(CPU_SHARE);
  });

  it('lowers the allowance to what fits at the costs a check run at it read, and never raises it', () => {
    // At 0.15 the shared work grew to 3 × the bot's: 1.6 / (4 × 4) = 0.1.
    expect(checkedAllowance(0.15, { ...costs, botMs: 3, sharedMs: 9 })).toBe(0.1);
    // A check that reads cheaper costs leaves the first allowance.
    expect(checkedAllowance(0.15, { ...costs, sharedMs: 1 })).toBe(0.15);
  });
});
