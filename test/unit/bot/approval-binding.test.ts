import { describe, expect, it } from 'vitest';
import { boundTo } from '../../../src/bot/betting/approvals.js';
import type { Proposal } from '../../../src/bot/betting/proposals.js';
import { boundSelection } from '../../../src/bot/betting/slip-kinds.js';
import type { SlipPayload } from '../../../src/bot/model/slip-rules.js';

const racing: SlipPayload = {
  kind: 'racing',
  racing: {
    track: 'Flemington',
    raceNum: 3,
    raceType: '(R)',
    date: '2026-11-23',
    runner: 'Wild Rocket',
    market: 'win',
  },
  epk: 'racing:Flemington/3/(R)/2026-11-23',
  sport: 'racing',
  eventName: 'Flemington R3',
  bookie: 'bookie_a',
  sessionId: 's1',
  marketKey: 'win',
  marketLabel: 'Win',
  selectionLabel: 'Wild Rocket',
  selectionName: 'Wild Rocket',
  marketRef: '',
  stakeCents: 1200,
  shownOdds: 4.2,
};

/** The proposal made from a slip, as Approvals.propose writes it. */
const proposalOf = (slip: SlipPayload): Proposal => ({
  proposalId: 'p1',
  slipId: 's1',
  guildKey: 'g',
  guildId: 'g',
  channelId: 'c',
  messageId: 'm',
  proposerId: 'u',
  sessionId: slip.sessionId,
  bookie: slip.bookie,
  epk: slip.epk,
  marketKey: slip.marketKey,
  marketRef: boundSelection(slip),
  day: '2026-11-23',
  stakeCents: slip.stakeCents ?? 0,
  shownOdds: slip.shownOdds,
  needed: 2,
  round: 0,
  state: 'open',
  note: null,
  reminded: false,
  remindAt: 0,
  expiresAt: 1,
  createdAt: 0,
  updatedAt: 0,
});

describe('what an approval binds', () => {
  it('names a racing bet by runner, market and bet type (a promo name, a bonus token)', () => {
    expect(boundSelection(racing)).toBe('runner Wild Rocket · win');
    const promo = { ...racing, racing: { ...racing.racing!, promoName: '2/3' }, useBonusBet: true };
    expect(boundSelection(promo)).toBe('runner Wild Rocket · win · promo 2/3 · bonus bet');
  });

  it('names a sports bet by its market_ref and a promo slip by its card', () => {
    expect(boundSelection({ ...racing, kind: undefined, racing: undefined, marketRef: 'ref-123' })).toBe('ref-123');
    expect(
      boundSelection({ ...racing, kind: 'promo', racing: undefined, promo: { promoId: 42, promoLabel: 'Boost' } }),
    ).toBe('promo #42');
  });

  it('holds while the slip is the proposed bet and fails for another runner, market, bet type, race, session or stake', () => {
    const p = proposalOf(racing);
    expect(boundTo(p, racing)).toBe(true);
    expect(boundTo(p, { ...racing, racing: { ...racing.racing!, runner: 'Other' } })).toBe(false);
    expect(boundTo(p, { ...racing, racing: { ...racing.racing!, market: 'place' } })).toBe(false);
    expect(boundTo(p, { ...racing, useBonusBet: true })).toBe(false);
    expect(boundTo(p, { ...racing, epk: 'racing:Flemington/4/(R)/2026-11-23' })).toBe(false);
    expect(boundTo(p, { ...racing, sessionId: 's2' })).toBe(false);
    expect(boundTo(p, { ...racing, stakeCents: 1300 })).toBe(false);
  });
});
