import { describe, expect, it } from 'vitest';
import {
  type SlipPayload,
  type StoredSlipPayload,
  slipFromStored,
  storedStakeCents,
} from '../../../src/bot/model/slip-rules.js';

// Slips, bet records' copies of them, jobs' contexts and button refs stored before stakes were kept in cents hold
// `stake` in dollars only: they are read once into whole cents (decision 1931), never shown or checked as floats.
const current: SlipPayload = {
  epk: 'nba/a_v_b',
  sport: 'basketball',
  eventName: 'A v B',
  bookie: 'bookie_a',
  sessionId: 's-1',
  marketKey: 'h2h',
  marketLabel: 'Head to head',
  selectionLabel: 'A',
  marketRef: 'ref-1',
  stakeCents: 1250,
  shownOdds: 2,
};
const { stakeCents: _cents, ...withoutCents } = current;

describe('stakes stored in dollars by older versions', () => {
  it('reads an old slip or proposal slip with only `stake` in dollars to its whole cents, and drops the dollars', () => {
    const old: StoredSlipPayload = JSON.parse(JSON.stringify({ ...withoutCents, stake: 12.5 }));
    const read = slipFromStored(old);
    expect(read.stakeCents).toBe(1250);
    expect(read).not.toHaveProperty('stake');
    expect(read).toEqual(current);
  });

  it('reads dollars that binary floats cannot hold exactly to the cents the member typed', () => {
    for (const [dollars, cents] of [
      [0.29, 29],
      [1.1, 110],
      [4.35, 435],
      [19.99, 1999],
      [1234.56, 123_456],
    ] as const) {
      expect(slipFromStored({ ...withoutCents, stake: dollars }).stakeCents, String(dollars)).toBe(cents);
    }
  });

  it('keeps the cents of a slip that stored both, whatever its dollars say', () => {
    expect(slipFromStored({ ...current, stake: 12.5 })).toEqual(current);
    expect(slipFromStored(current)).toEqual(current);
  });

  it('reads a stored button ref with dollars or cents alike', () => {
    expect(storedStakeCents({ stake: 60 })).toBe(6000);
    expect(storedStakeCents({ stakeCents: 6000 })).toBe(6000);
  });
});
