import { describe, expect, it } from 'vitest';
import {
  checkDailyLoss,
  checkEventShare,
  drawdownBetween,
  drawdownOf,
  eventCapCents,
  limitLines,
  parseLimit,
  stopRefusal,
  tripsStop,
} from '../../../../src/bot/fund/model/risk-limits.js';

const P = 1_000_000; // PRICE_SCALE: a price of 100 cents a unit is 100 * P
const pt = (i: number, cents: number) => ({ strikeId: `s${i}`, at: i * 1000, price: cents * P });

describe('limit settings are parsed exactly, with the allowed range in the refusal', () => {
  it('percent to basis points, dollars to cents, without floats', () => {
    expect(parseLimit('drawdown', '15')).toEqual({ ok: true, value: 1500 });
    expect(parseLimit('drawdown', '12.5%')).toEqual({ ok: true, value: 1250 });
    expect(parseLimit('event_share', '0.1')).toEqual({ ok: true, value: 10 });
    expect(parseLimit('daily_loss', '$1,250.05')).toEqual({ ok: true, value: 125_005 });
    expect(parseLimit('daily_loss', '0.29')).toMatchObject({ ok: false });
    expect(parseLimit('quorum', '3')).toEqual({ ok: true, value: 3 });
  });
  it('off clears a limit (the quorum goes back to its default)', () => {
    expect(parseLimit('daily_loss', 'off')).toEqual({ ok: true, value: undefined });
    expect(parseLimit('quorum', 'off')).toEqual({ ok: true, value: 2 });
  });
  it('out of range or unreadable values name the range and an example', () => {
    const r = parseLimit('drawdown', '95');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toBe('drawdown must be 1% to 90% (e.g. drawdown:15), or off. Nothing was changed.');
    const d = parseLimit('daily_loss', '12.345');
    if (!d.ok) expect(d.message).toContain('$1.00 to $1,000,000.00');
    expect(d.ok).toBe(false);
    expect(parseLimit('quorum', '6').ok).toBe(false);
    expect(parseLimit('event_share', 'ten').ok).toBe(false);
  });
});

describe('the drawdown stop', () => {
  it('measures the last price below the highest since the mark restarted, rounded down', () => {
    const d = drawdownOf([pt(1, 100), pt(2, 120), pt(3, 102)], 0);
    expect(d.mark?.strikeId).toBe('s2');
    expect(d.drawdownBps).toBe(1500);
    expect(tripsStop(d, 1500)).toBe(true);
    expect(tripsStop(d, 1501)).toBe(false);
    expect(tripsStop(d, undefined)).toBe(false);
  });
  it('a resume restarts the mark: strikes before it no longer count', () => {
    const d = drawdownOf([pt(1, 120), pt(2, 90), pt(3, 95)], 2000);
    expect(d.mark?.strikeId).toBe('s3');
    expect(d.drawdownBps).toBe(0);
    expect(drawdownOf([pt(1, 120)], 5000)).toEqual({ mark: null, last: null, drawdownBps: 0 });
  });
  it('the refusal names the stop, says no room is left and who resumes it', () => {
    const r = stopRefusal({ at: 1, strikeId: 's', drawdownBps: 2000, votes: ['a'] }, { drawdownBps: 1500 });
    expect(r).toMatchObject({ ok: false, limit: 'drawdown', roomCents: 0 });
    if (!r.ok) {
      expect(r.message).toContain("the fund's drawdown stop is on");
      expect(r.message).toContain('20% below its high-water mark; the stop is 15%');
      expect(r.message).toContain('2 approvers');
      expect(r.message).toContain('1 of 2 so far');
    }
  });
});

describe('the daily loss limit counts realised P&L and the stake still at risk', () => {
  it('allows a stake up to the room and refuses a cent more, naming the room', () => {
    const base = { limitCents: 50_000, realisedTodayCents: -20_000, openStakeCents: 10_000 };
    expect(checkDailyLoss({ ...base, stakeCents: 20_000 })).toEqual({ ok: true });
    const r = checkDailyLoss({ ...base, stakeCents: 20_001 });
    expect(r).toMatchObject({ ok: false, limit: 'daily_loss', roomCents: 20_000 });
    if (!r.ok) {
      expect(r.message).toContain('daily loss limit of $500.00');
      expect(r.message).toContain('Room left: $200.00');
      expect(r.message).toContain('/fund limits daily_loss:');
    }
  });
  it("a winning day's profit offsets the stake at risk, but the room never passes the limit", () => {
    const won = { limitCents: 10_000, realisedTodayCents: 5_000, openStakeCents: 8_000 };
    expect(checkDailyLoss({ ...won, stakeCents: 7_000 }).ok).toBe(true);
    expect(checkDailyLoss({ ...won, stakeCents: 7_001 }).ok).toBe(false);
    expect(checkDailyLoss({ ...won, openStakeCents: 0, stakeCents: 10_001 })).toMatchObject({
      ok: false,
      roomCents: 10_000,
    });
  });
  it('no limit set checks nothing', () => {
    expect(
      checkDailyLoss({ limitCents: undefined, realisedTodayCents: -1e9, openStakeCents: 0, stakeCents: 1 }).ok,
    ).toBe(true);
  });
});

describe('the per-event share of NAV', () => {
  it('caps the open stake on one event, all markets, at the share of NAV rounded down', () => {
    expect(eventCapCents(123_457, 1000)).toBe(12_345);
    const x = { shareBps: 1000, navCents: 100_000, eventOpenCents: 6_000, eventName: 'A v B' };
    expect(checkEventShare({ ...x, stakeCents: 4_000 }).ok).toBe(true);
    const r = checkEventShare({ ...x, stakeCents: 4_001 });
    expect(r).toMatchObject({ ok: false, limit: 'event_share', roomCents: 4_000 });
    if (!r.ok) expect(r.message).toContain('at most 10% of NAV ($100.00) on A v B');
  });
  it('without a strike there is no NAV to share and nothing is refused', () => {
    expect(
      checkEventShare({ shareBps: 10, navCents: null, eventOpenCents: 0, stakeCents: 1e9, eventName: 'x' }).ok,
    ).toBe(true);
  });
});

describe('the limits as /exposure lists them', () => {
  it('one line per limit set, with what is used and the room', () => {
    const lines = limitLines({
      limits: { drawdownBps: 1500, dailyLossCents: 50_000, eventShareBps: 1000 },
      drawdown: drawdownOf([pt(1, 100), pt(2, 95)], 0),
      stop: null,
      realisedTodayCents: -10_000,
      openStakeCents: 5_000,
      navCents: 100_000,
      topEvent: { name: 'A v B', openCents: 3_000 },
    });
    expect(lines).toEqual([
      'Drawdown stop at 15%: now 5% below the mark, room 10%',
      'Daily loss limit $500.00: $150.00 used (realised -$100.00, at risk $50.00), room $350.00',
      'Per event 10% of NAV ($100.00); A v B: $30.00, room $70.00',
      'A treasurer sets these with /fund limits.',
    ]);
    expect(
      limitLines({
        limits: {},
        drawdown: drawdownOf([], 0),
        stop: null,
        realisedTodayCents: 0,
        openStakeCents: 0,
        navCents: null,
      }),
    ).toEqual([]);
  });
});

describe('the drawdown between strikes (the stop at the next look)', () => {
  const last = { navCents: 10_200, units: 100 * 1_000_000 };
  it('prices the last strike NAV plus the loss of bets settled since, against the strikes mark', () => {
    // Mark $1.20, last strike $1.02 (15.00 %); $2.00 lost since over 100 units: $1.00 a unit, 16.66 % below the mark.
    const d = drawdownBetween(drawdownOf([pt(1, 100), pt(2, 120), pt(3, 102)], 0), last, -200, 9_000);
    expect(d.mark?.strikeId).toBe('s2');
    expect(d.last).toEqual({ strikeId: 's3', at: 9_000, price: 100 * P });
    expect(d.drawdownBps).toBe(1666);
    expect(tripsStop(d, 1600)).toBe(true);
  });
  it('never lets a gain since the strike raise the mark or lift the fall', () => {
    const strikes = drawdownOf([pt(1, 120), pt(2, 102)], 0);
    expect(drawdownBetween(strikes, last, 5_000, 9_000)).toEqual(strikes);
    expect(drawdownBetween(strikes, last, 0, 9_000)).toEqual(strikes);
  });
  it('has nothing to fall from with no strike since the mark restarted', () => {
    const none = drawdownOf([pt(1, 120)], 5_000);
    expect(drawdownBetween(none, last, -5_000, 9_000)).toEqual(none);
  });
});
