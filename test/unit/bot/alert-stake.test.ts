// The stake form an alert's Bet button opens: its suggestion is sized from the fair price the alert showed, so the
// form and the alert agree (decision 2136); an alert that showed none is sized from the cached cards as any form is.
import { describe, expect, it, vi } from 'vitest';
import { type Bettable, suggestedStakeFor } from '../../../src/bot/betting/handlers/bet-gate.js';
import { approvalPolicy } from '../../../src/bot/betting/model/approval-policy.js';
import type { Catalog } from '../../../src/bot/catalog/index.js';

const gate = (bankCents: number | null): Bettable => ({
  guildId: 'g1',
  channelId: 'c1',
  userId: 'u1',
  settings: {} as Bettable['settings'],
  limits: { perBetCents: 50_000, perDayCents: 100_000 },
  policy: approvalPolicy({}),
  bankCents,
});

/** A catalog whose every read is counted: the alert's form must not need one. */
function countingCatalog() {
  const event = vi.fn(async () => undefined);
  const peekCard = vi.fn(async () => undefined);
  return { catalog: { event, peekCard } as unknown as Catalog, event, peekCard };
}

const q = { epk: 'e1', bookie: 'bookie_a', marketRef: 'ref-1' };

describe("an alert's stake form", () => {
  it("sizes ¼ Kelly of the bank from the alert's fair probability, rounded down to the $1 unit, with no card read", async () => {
    const { catalog, event, peekCard } = countingCatalog();
    // Price 2.50 against a fair 2.00 (p = 0.5): edge 0.25, full Kelly 0.25 / 1.5 = 1/6; ¼ of it of $1,000 = $41.66…
    const cents = await suggestedStakeFor({ catalog }, gate(100_000), { ...q, odds: 2.5, fairProbability: 0.5 });
    expect(cents).toBe(4100);
    expect(event).not.toHaveBeenCalled();
    expect(peekCard).not.toHaveBeenCalled();
  });

  it('offers nothing when the edge sizes less than one unit', async () => {
    const { catalog } = countingCatalog();
    // Edge 0.5 % at 4.32: ¼ × 0.005 / 3.32 of $1,000 = $0.38, under the $1 unit.
    const p = 1.005 / 4.32;
    await expect(suggestedStakeFor({ catalog }, gate(100_000), { ...q, odds: 4.32, fairProbability: p })).resolves.toBe(
      undefined,
    );
  });

  it('offers nothing without a bank to size it from', async () => {
    const { catalog } = countingCatalog();
    await expect(
      suggestedStakeFor({ catalog }, gate(null), { ...q, odds: 2.5, fairProbability: 0.5 }),
    ).resolves.toBeUndefined();
  });

  it('reads the cached cards when the alert showed no fair price', async () => {
    const { catalog, peekCard } = countingCatalog();
    await expect(suggestedStakeFor({ catalog }, gate(100_000), { ...q, odds: 2.5 })).resolves.toBeUndefined();
    expect(peekCard).toHaveBeenCalledWith('e1', 'bookie_a');
  });
});
