import { describe, expect, it } from 'vitest';
import { overLimitText } from '../../../../src/bot/betting/placement.js';
import { lowerOf, shareOfBank } from '../../../../src/bot/model/bank-caps.js';
import type { SlipPayload } from '../../../../src/bot/model/slip-rules.js';
import { checkDailyRoom, checkStake } from '../../../../src/bot/model/slip-rules.js';
import {
  bindingShare,
  exposureCaps,
  type GuildSettings,
  stakeLimits,
} from '../../../../src/bot/settings/guild-settings.js';

const tunables = { defaultMaxStakePerBetCents: 20_000, defaultMaxStakePerDayCents: 100_000 } as Parameters<
  typeof stakeLimits
>[1];
const settings = (s: Partial<GuildSettings>): GuildSettings => ({ timezone: 'UTC', sessions: {}, ...s });

describe('caps as a share of the bank', () => {
  it('a share is rounded down to whole cents', () => {
    expect(shareOfBank(5, 100_001)).toBe(5000);
    expect(shareOfBank(2.5, 1_000_000)).toBe(25_000);
  });

  it('the lower of the dollar cap and the share binds', () => {
    expect(lowerOf(20_000, 5, 100_000)).toEqual({
      cents: 5000,
      share: { pct: 5, cents: 5000, bankCents: 100_000, dollarCents: 20_000 },
    });
    expect(lowerOf(4000, 5, 100_000)).toEqual({ cents: 4000 });
  });

  it('with no bank the share is not applied and the dollar cap stands', () => {
    expect(lowerOf(20_000, 5, null)).toEqual({ cents: 20_000 });
    expect(lowerOf(undefined, 5, null)).toBeUndefined();
  });

  it('a per-bet refusal by the share names the share, its amount and the dollar cap', () => {
    const limits = stakeLimits(settings({ maxStakePerBetPct: 5 }), tunables, 100_000);
    const refused = checkStake(6000, limits);
    expect(refused).toEqual({
      ok: false,
      message:
        '$60.00 is above 5% of the bank ($50.00); the dollar cap is $200.00. Lower the stake, or ask an admin to change it with /settings limits.',
    });
    expect(checkStake(5000, limits)).toEqual({ ok: true });
  });

  it("today's room refused by a share names both", () => {
    const limits = stakeLimits(settings({ maxStakePerDayPct: 10 }), tunables, 100_000);
    const room = checkDailyRoom(3000, 8000, limits.perDayCents, limits.shares?.perDay);
    expect(room.ok).toBe(false);
    if (!room.ok)
      expect(room.message).toContain("today's limit of 10% of the bank ($100.00); the dollar cap is $1,000.00");
  });

  it('event and market caps take the lower of dollars and share', () => {
    const s = settings({ maxPerEventCents: 30_000, maxPerEventPct: 2, maxPerMarketPct: 1 });
    expect(exposureCaps(s, 1_000_000)).toEqual({ perEventCents: 20_000, perMarketCents: 10_000 });
    expect(exposureCaps(s, null)).toEqual({ perEventCents: 30_000 });
  });
});

describe('an exposure cap refusal at Confirm', () => {
  it('names the share and the dollar cap when the share bound', () => {
    const s = settings({ maxPerEventCents: 30_000, maxPerEventPct: 2 });
    const share = bindingShare(s, tunables, 1_000_000, 'event');
    const slip = { eventName: 'Home v Away' } as SlipPayload;
    const text = overLimitText(
      { kind: 'over_limit', cap: 'event', usedCents: 15_000, limitCents: 20_000 },
      slip,
      share,
    );
    expect(text).toBe(
      "Not placed: this bet would take the desk past the syndicate's cap of $200.00 on Home v Away ($150.00 already rides on it). Room left: $50.00. The cap is 2% of the bank ($200.00); the dollar cap is $300.00. Try a smaller stake, or see /exposure.",
    );
  });

  it('says nothing of a share when the dollar cap bound', () => {
    expect(
      bindingShare(settings({ maxPerEventCents: 10_000, maxPerEventPct: 2 }), tunables, 1_000_000, 'event'),
    ).toBeUndefined();
  });
});
