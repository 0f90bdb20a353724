import { describe, expect, it } from 'vitest';
import { multiBetRequest } from '../../../src/bot/betting/multi-prices.js';
import { stackMembers, stackPayload, stackRequest } from '../../../src/bot/betting/stack.js';
import type { MultiSlipInfo } from '../../../src/bot/model/racing-bet.js';
import type { SlipPayload, StackedMulti } from '../../../src/bot/model/slip-rules.js';

/** Bonus multis (decision 2051): the flag rides on each multi's request and record, and the slip's only when all are. */
const multi = (a: string, b: string): MultiSlipInfo => ({
  track: 'Flemington',
  raceNum: 3,
  raceType: '(R)',
  date: '2026-11-28',
  legs: [
    { runner: a, position: 'top3', winPrice: 4 },
    { runner: b, position: 'top4', winPrice: 6 },
  ],
  method: 'multiplicative',
  books: 3,
});

const base: SlipPayload = {
  kind: 'multi',
  multi: multi('Alpha', 'Bravo'),
  epk: 'racing:Flemington/3/(R)/2026-11-28',
  sport: 'racing',
  eventName: 'Flemington R3',
  bookie: 'bookie_a',
  sessionId: 's1',
  marketKey: 'srm',
  marketLabel: 'Same-race multi (2 legs) (bonus bet)',
  selectionLabel: 'Alpha top 3 + Bravo top 4',
  selectionName: 'Alpha top 3 + Bravo top 4',
  marketRef: '',
  stakeCents: 500,
  shownOdds: 1.01,
  useBonusBet: true,
};

const cash: StackedMulti = { multi: multi('Charlie', 'Delta'), stakeCents: 200 };

describe('bonus multis', () => {
  it('sends use_bonus_bet for a bonus multi placed alone, and not for a cash one', () => {
    expect(multiBetRequest(base, base.multi as MultiSlipInfo, 5, undefined).use_bonus_bet).toBe(true);
    const { useBonusBet: _b, ...plain } = base;
    expect('use_bonus_bet' in multiBetRequest(plain, base.multi as MultiSlipInfo, 5, undefined)).toBe(false);
  });

  it('keeps each multi’s own flag in a stack: on its stacked_srm bet and on its own record', () => {
    const grown = stackPayload(base, [
      { multi: base.multi as MultiSlipInfo, stakeCents: 500, useBonusBet: true },
      cash,
    ]);
    expect(grown.useBonusBet).toBeUndefined();
    expect(stackRequest(grown, [500, 200], undefined).bets.map((b) => b.use_bonus_bet)).toEqual([true, undefined]);
    expect(stackMembers(grown, 'slip').map((m) => m.useBonusBet)).toEqual([true, undefined]);
  });

  it('marks the stack slip a bonus slip only when every multi stakes a token', () => {
    const both = stackPayload(base, [
      { multi: base.multi as MultiSlipInfo, stakeCents: 500, useBonusBet: true },
      { ...cash, useBonusBet: true },
    ]);
    expect(both.useBonusBet).toBe(true);
  });
});
