import { describe, expect, it } from 'vitest';
import {
  BET_TRANSITIONS,
  type BetEntry,
  type BetState,
  checkBetEntries,
  entryKindOf,
  HOLDING,
} from '../../../src/bot/model/bet-states.js';

const entry = (seq: number, kind: string, from: BetState | null, to: BetState): BetEntry => ({ seq, kind, from, to });

describe('the bet transition table', () => {
  it('releases the hold exactly on the moves out of a holding state into one that holds nothing', () => {
    for (const [name, t] of Object.entries(BET_TRANSITIONS)) {
      const releases = t.from.some((s) => HOLDING.includes(s)) && !HOLDING.includes(t.to);
      expect(t.ledger === 'release', name).toBe(releases);
    }
  });

  it('names the ledger kind of a move by its from-state, and nothing for a move no row allows', () => {
    expect(entryKindOf(null, 'sending')).toBe('hold');
    expect(entryKindOf('not_placed', 'placed')).toBe('placement');
    expect(entryKindOf('placed', 'refused')).toBeUndefined();
    expect(entryKindOf('settled', 'placed')).toBeUndefined();
  });
});

describe("a bet record's ledger entries against its state", () => {
  it('finds nothing wrong with one entry per move from the claim to the state', () => {
    const entries = [
      entry(1, 'hold', null, 'sending'),
      entry(4, 'submitted', 'sending', 'submitted'),
      entry(9, 'placement', 'submitted', 'placed'),
      entry(12, 'settlement', 'placed', 'settled'),
    ];
    expect(checkBetEntries('settled', entries)).toEqual([]);
  });

  it('accepts older entries that did not record the state a move left', () => {
    const entries = [entry(1, 'hold', null, 'sending'), entry(2, 'placement', null, 'placed')];
    expect(checkBetEntries('placed', entries)).toEqual([]);
  });

  it('names a lost hold', () => {
    expect(checkBetEntries('sending', [])).toEqual([
      { problem: 'missing_entry', detail: 'no entry at all (the record is sending)' },
    ]);
    expect(checkBetEntries('submitted', [entry(3, 'submitted', 'sending', 'submitted')])).toEqual([
      { problem: 'missing_entry', detail: 'no entry for the claim (hold)' },
    ]);
  });

  it('names a move the record made without its entry, in the middle and at the end', () => {
    const middle = [entry(1, 'hold', null, 'sending'), entry(5, 'placement', 'submitted', 'placed')];
    expect(checkBetEntries('placed', middle)).toEqual([
      { problem: 'missing_entry', detail: 'no entry for sending → submitted' },
    ]);
    expect(checkBetEntries('refused', [entry(1, 'hold', null, 'sending')])).toEqual([
      { problem: 'missing_entry', detail: 'no entry for sending → refused' },
    ]);
  });

  it('names an entry written twice, a second hold and an entry for no move of a bet as extra', () => {
    const entries = [
      entry(1, 'hold', null, 'sending'),
      entry(2, 'hold', null, 'sending'),
      entry(3, 'release', 'sending', 'refused'),
      entry(4, 'release', 'sending', 'refused'),
      entry(5, 'placement', 'refused', 'placed'),
    ];
    expect(checkBetEntries('refused', entries)).toEqual([
      { problem: 'extra_entry', detail: 'entry 2 is a second hold (the claim)' },
      { problem: 'extra_entry', detail: 'entry 4 repeats the release for sending → refused' },
      { problem: 'extra_entry', detail: 'entry 5 is a placement for refused → placed, which is no move of a bet' },
    ]);
  });
});
