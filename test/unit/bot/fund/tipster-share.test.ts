import { describe, expect, it } from 'vitest';
import { PRICE_SCALE, strike, UNIT_SCALE } from '../../../../src/bot/fund/model/fund.js';
import { standingsOf, tipsterShareAt } from '../../../../src/bot/fund/model/tipster-share.js';

const t = (memberId: string, pnlCents: number, markCents = 0) => ({ memberId, pnlCents, markCents });
const byMember = (s: ReturnType<typeof tipsterShareAt>) =>
  Object.fromEntries(s.lines.map((l) => [l.memberId, l.accruedCents]));

describe('the tipster share: each tipster above their own mark', () => {
  it('accrues the rate on P&L above the mark, rounded down to the cent', () => {
    // 10 % of $123.45 above a $0 mark is $12.345: $12.34, the fund keeps the fraction.
    const s = tipsterShareAt({ rateBps: 1_000, tipsters: [t('ann', 12_345)] }, 1_000_000);
    expect(s.lines[0]).toMatchObject({ gainCents: 12_345, accruedCents: 1_234 });
    expect(s.accruedCents).toBe(1_234);
    expect(s.capped).toBe(false);
  });

  it("pays only on the gain above each tipster's own mark, not on P&L already crystallised", () => {
    const s = tipsterShareAt({ rateBps: 2_000, tipsters: [t('ann', 30_000, 25_000), t('ben', 10_000, 0)] }, 1_000_000);
    // Ann: 20 % of $50.00 = $10.00; Ben: 20 % of $100.00 = $20.00.
    expect(byMember(s)).toEqual({ ann: 1_000, ben: 2_000 });
    expect(s.gainsCents).toBe(15_000);
  });

  it("accrues nothing to a tipster at or below their mark, and a loser does not reduce a winner's share", () => {
    const s = tipsterShareAt(
      { rateBps: 1_000, tipsters: [t('ann', 5_000, 5_000), t('ben', -8_000, 0), t('cat', 4_000, 0)] },
      1_000_000,
    );
    expect(byMember(s)).toEqual({ ann: 0, ben: 0, cat: 400 });
    expect(s.lines.map((l) => l.gainCents)).toEqual([0, 0, 4_000]);
  });

  it('accrues nothing when the rate is 0 or no tipster is above their mark', () => {
    expect(tipsterShareAt({ rateBps: 0, tipsters: [t('ann', 10_000)] }, 1_000_000).accruedCents).toBe(0);
    expect(tipsterShareAt({ rateBps: 1_000, tipsters: [t('ann', -100)] }, 1_000_000).accruedCents).toBe(0);
    expect(tipsterShareAt({ rateBps: 1_000, tipsters: [] }, 1_000_000).accruedCents).toBe(0);
  });
});

describe("the tipster share is capped by the fund's own gain above its mark", () => {
  it("pays on no more than the fund's gain, cut in proportion to each tipster's gain", () => {
    // Ann +$1,000 and Cat +$500 above their marks, Ben lost: the fund is up $300 above its mark. 10 % is paid on
    // $300 shared 2:1, Ann on $200 ($20.00), Cat on $100 ($10.00), never on the $1,500 the tipsters made.
    const s = tipsterShareAt(
      { rateBps: 1_000, tipsters: [t('ann', 100_000), t('ben', -120_000), t('cat', 50_000)] },
      30_000,
    );
    expect(s.capped).toBe(true);
    expect(byMember(s)).toEqual({ ann: 2_000, ben: 0, cat: 1_000 });
    expect(s.accruedCents).toBe(3_000);
  });

  it("rounds each cut share down, so the total never exceeds the rate on the fund's gain", () => {
    // Three equal gains of $1.00, fund gain $1.00 at 10 %: each is paid on $0.333…: 3.33 cents → 3 cents each.
    const s = tipsterShareAt({ rateBps: 1_000, tipsters: [t('a', 100), t('b', 100), t('c', 100)] }, 100);
    expect(byMember(s)).toEqual({ a: 3, b: 3, c: 3 });
    expect(s.accruedCents).toBeLessThanOrEqual(10);
  });

  it('pays nothing when the fund is at or below its mark, whatever the tipsters made', () => {
    for (const fundGain of [0, -5_000]) {
      const s = tipsterShareAt({ rateBps: 1_000, tipsters: [t('ann', 100_000)] }, fundGain);
      expect(s.accruedCents).toBe(0);
      expect(s.fundGainCents).toBe(0);
      expect(s.capped).toBe(true);
    }
  });

  it('is not cut when the fund gained at least what the tipsters did', () => {
    const s = tipsterShareAt({ rateBps: 1_500, tipsters: [t('ann', 7_777), t('ben', 2_223)] }, 10_000);
    expect(s.capped).toBe(false);
    // 15 % of $77.77 = $11.6655 → $11.66; of $22.23 = $3.3345 → $3.33.
    expect(byMember(s)).toEqual({ ann: 1_166, ben: 333 });
  });

  it("never totals more than the rate on the smaller of the fund's gain and the tipsters' gains (generated)", () => {
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    for (let i = 0; i < 500; i++) {
      const rateBps = rnd(5_001);
      const tipsters = Array.from({ length: 1 + rnd(6) }, (_, k) => t(`m${k}`, rnd(200_000) - 80_000, rnd(60_000)));
      const fundGain = rnd(300_000) - 50_000;
      const s = tipsterShareAt({ rateBps, tipsters }, fundGain);
      const base = Math.min(s.gainsCents, Math.max(0, fundGain));
      expect(s.accruedCents).toBeLessThanOrEqual(Math.floor((base * rateBps) / 10_000));
      expect(s.accruedCents).toBe(s.lines.reduce((a, l) => a + l.accruedCents, 0));
      for (const l of s.lines) {
        expect(Number.isInteger(l.accruedCents)).toBe(true);
        expect(l.accruedCents).toBeGreaterThanOrEqual(0);
        expect(l.accruedCents).toBeLessThanOrEqual(Math.floor((l.gainCents * rateBps) / 10_000));
      }
    }
  });
});

describe('crystallising the tipster share', () => {
  it('makes the whole accrual owed and moves each mark up to the P&L, never down', () => {
    const s = tipsterShareAt(
      { rateBps: 1_000, tipsters: [t('ann', 30_000, 10_000), t('ben', -2_000, 5_000)] },
      1_000_000,
      { crystallise: true },
    );
    expect(s.crystallisedCents).toBe(2_000);
    expect(s.accruedAfterCents).toBe(0);
    expect(s.lines.map((l) => l.markAfterCents)).toEqual([30_000, 5_000]);
  });

  it('leaves the marks alone between crystallisations, so a loss takes the accrual back down', () => {
    const first = tipsterShareAt({ rateBps: 1_000, tipsters: [t('ann', 30_000)] }, 1_000_000);
    expect(first.accruedCents).toBe(3_000);
    expect(first.lines[0]?.markAfterCents).toBe(0);
    const later = tipsterShareAt(
      { rateBps: 1_000, tipsters: [t('ann', 12_000, first.lines[0]?.markAfterCents)] },
      1_000_000,
    );
    expect(later.accruedCents).toBe(1_200);
  });
});

describe('the standings a strike works the share out on', () => {
  it("starts every mark at the tipster's P&L when the share was off at the last strike", () => {
    const pnl = new Map([
      ['ann', 50_000],
      ['ben', -3_000],
    ]);
    expect(standingsOf(pnl, undefined)).toEqual([t('ann', 50_000, 50_000), t('ben', -3_000, -3_000)]);
  });

  it('reads the marks the last strike left, a new tipster starting at 0 and one with no P&L now kept', () => {
    const pnl = new Map([
      ['ann', 60_000],
      ['cat', 2_500],
    ]);
    const previous = {
      tipsters: [
        { memberId: 'ann', markAfterCents: 50_000 },
        { memberId: 'ben', markAfterCents: 1_000 },
      ],
    };
    expect(standingsOf(pnl, previous)).toEqual([t('ann', 60_000, 50_000), t('ben', 0, 1_000), t('cat', 2_500, 0)]);
  });
});

describe('the strike with the tipster share on', () => {
  // 100 units at a $1.00 mark; cash $150.00: the fund is $50.00 above its mark.
  const base = {
    nav: { cashCents: 15_000, bonusCents: 0, navCents: 15_000 },
    units: 100 * UNIT_SCALE,
    holdings: new Map([['ann', 100 * UNIT_SCALE]]),
    contributions: [],
    cashouts: [],
    openingPriceCents: 100,
  };
  const mark = 100 * PRICE_SCALE;

  it('strikes NAV net of the accrued share, as of the fee', () => {
    const r = strike({
      ...base,
      fee: { rateBps: 2_000, highWaterPrice: mark },
      share: { rateBps: 1_000, tipsters: [t('ann', 4_000), t('ben', 3_000)] },
    });
    // Fee 20 % of $50.00 = $10.00; share 10 % of $70.00 of tipster gains, capped at the fund's $50.00: $5.00, cut
    // 4:3 as $2.85 and $2.14 (rounded down); NAV $150.00 − $10.00 − $4.99.
    expect(r.feeCents).toBe(1_000);
    expect(r.share?.lines.map((l) => l.accruedCents)).toEqual([285, 214]);
    expect(r.navCents).toBe(15_000 - 1_000 - 499);
    expect(r.price).toBe(((15_000 - 1_499) * PRICE_SCALE) / 100);
  });

  it('keeps NAV where it was when the share crystallises: owed instead of accrued', () => {
    const terms = { rateBps: 1_000, tipsters: [t('ann', 4_000)] };
    const accrued = strike({ ...base, fee: { rateBps: 0, highWaterPrice: mark }, share: terms });
    const owed = strike({ ...base, fee: { rateBps: 0, highWaterPrice: mark }, share: terms, crystallise: true });
    expect(owed.share?.crystallisedCents).toBe(400);
    expect(owed.navCents).toBe(accrued.navCents);
    // The fund's mark moves up to the price after the crystallisation, net of the share owed.
    expect(owed.highWaterPrice).toBe(((15_000 - 400) * PRICE_SCALE) / 100);
  });

  it('is a fixed point: the next strike with nothing changed accrues the same share and prices the same', () => {
    const fee = { rateBps: 2_000, highWaterPrice: mark };
    const share = { rateBps: 1_000, tipsters: [t('ann', 4_000), t('ben', 3_000)] };
    const first = strike({ ...base, fee, share });
    const again = strike({ ...base, fee: { ...fee, highWaterPrice: first.highWaterPrice }, share });
    expect(again.share?.accruedCents).toBe(first.share?.accruedCents);
    expect(again.navCents).toBe(first.navCents);
    expect(again.price).toBe(first.price);
  });

  it('changes nothing with the share off', () => {
    const fee = { rateBps: 2_000, highWaterPrice: mark };
    const off = strike({ ...base, fee, share: { rateBps: 0, tipsters: [t('ann', 4_000)] } });
    const none = strike({ ...base, fee });
    expect(off.share).toBeUndefined();
    expect(off.navCents).toBe(none.navCents);
  });
});

describe('the worked example of decision 1923', () => {
  const book = (navCents: number) => ({
    nav: { cashCents: navCents, bonusCents: 0, navCents },
    units: 100 * UNIT_SCALE,
    holdings: new Map([['ann', 100 * UNIT_SCALE]]),
    contributions: [],
    cashouts: [],
    openingPriceCents: 100,
    fee: { rateBps: 0, highWaterPrice: 100 * PRICE_SCALE },
  });
  const tipsters = (catCents: number) => ({
    rateBps: 2_000,
    tipsters: [t('ann', 6_000), t('ben', 4_000), t('cat', catCents)],
  });

  it("cuts Ann and Ben to the fund's $80.00 gain: $9.60 and $6.40, NAV $164.00, crystallised at the same NAV", () => {
    const november = strike({ ...book(18_000), share: tipsters(-7_000) });
    expect(november.share?.fundGainCents).toBe(8_000);
    expect(november.share?.capped).toBe(true);
    expect(november.share?.lines.map((l) => [l.memberId, l.accruedCents])).toEqual([
      ['ann', 960],
      ['ben', 640],
      ['cat', 0],
    ]);
    expect(november.navCents).toBe(16_400);
    expect(november.price).toBe(164 * PRICE_SCALE);
    const december = strike({ ...book(18_000), share: tipsters(-7_000), crystallise: true });
    expect(december.navCents).toBe(16_400);
    expect(december.share?.crystallisedCents).toBe(1_600);
    expect(december.highWaterPrice).toBe(164 * PRICE_SCALE);
    expect(december.share?.lines.map((l) => l.markAfterCents)).toEqual([6_000, 4_000, 0]);
  });

  it('cuts nothing when Cat lost only $30.00: Ann $12.00, Ben $8.00', () => {
    const r = strike({ ...book(22_000), share: tipsters(-3_000) });
    expect(r.share?.capped).toBe(false);
    expect(r.share?.lines.map((l) => l.accruedCents)).toEqual([1_200, 800, 0]);
  });
});
