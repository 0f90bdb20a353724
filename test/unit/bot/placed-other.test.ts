// Issue 36: the receipt's check of the placed selection and line against the slip's.
import { describe, expect, it } from 'vitest';
import { placedOther, placedOtherNote, placedOtherOf } from '../../../src/bot/betting/model/placed-other.js';
import type { SlipPayload } from '../../../src/bot/model/slip-rules.js';
import { placedSelectionOf } from '../../../src/gateway/index.js';

const slip = {
  epk: 'ice_hockey/us/nhl/florida_panthers_v_boston_bruins/2026-11-21',
  sport: 'nhl',
  eventName: 'Florida Panthers v Boston Bruins',
  bookie: 'bookie_a',
  sessionId: 's',
  marketKey: 'alternate_line',
  marketLabel: 'Alternate Line',
  selectionLabel: 'Florida Panthers +1.5',
  selectionName: 'Florida Panthers +1.5',
  line: 1.5,
  marketRef: 'ref',
  stakeCents: 500,
  shownOdds: 1.43,
} as SlipPayload;

describe('placedOther', () => {
  it('passes the slip’s own selection, whatever the case, spacing or typographic minus', () => {
    expect(placedOther(slip, { selection: 'florida  panthers +1.5', line: 1.5, market: 'alternate_line' })).toBeNull();
    expect(
      placedOther({ ...slip, selectionName: 'Boston Bruins -1.5', line: -1.5 }, { selection: 'Boston Bruins −1.5' }),
    ).toBeNull();
  });

  it('names the other side of the handicap the book placed', () => {
    expect(placedOther(slip, { selection: 'Florida Panthers -1.5', line: -1.5, market: 'alternate_line' })).toBe(
      "the book placed 'Florida Panthers -1.5' (line -1.5) in alternate_line, not the slip's 'Florida Panthers +1.5' (line +1.5) in alternate_line",
    );
  });

  it('flags another line or market even under the same label, and compares nothing the result does not report', () => {
    expect(placedOther(slip, { selection: 'Florida Panthers +1.5', line: 2.5 })).toMatch(/line \+2\.5/);
    expect(placedOther(slip, { market: 'line' })).toMatch(/in line, not/);
    expect(placedOther(slip, {})).toBeNull();
    expect(placedOther({ ...slip, racing: {} as SlipPayload['racing'] }, { selection: 'Other' })).toBeNull();
  });

  it('reads the facts beside the receipt or inside bet_result, and round-trips through the record note', () => {
    expect(placedSelectionOf({ success: true, selection: 'A +1.5', line: 1.5, market: 'line' })).toEqual({
      selection: 'A +1.5',
      line: 1.5,
      market: 'line',
    });
    expect(placedSelectionOf({ success: true, bet_result: { selection: 'B', line: null } })).toEqual({
      selection: 'B',
      line: null,
    });
    expect(placedSelectionOf({ success: true, bet_id: 'x' })).toEqual({});
    expect(placedOtherOf(placedOtherNote('what'))).toBe('what');
    expect(placedOtherOf('adopted from the history')).toBeUndefined();
  });
});
