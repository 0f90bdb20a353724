import type { ModalSubmitInteraction } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { readStake } from '../../../src/bot/betting/handlers/stake-form.js';
import { parseCents } from '../../../src/bot/model/money.js';
import { acceptableFloor, potentialReturnCents } from '../../../src/bot/model/odds.js';
import {
  checkMinOdds,
  checkStake,
  decideOnLivePrice,
  readStakeOption,
  type SlipPayload,
} from '../../../src/bot/model/slip-rules.js';

const slip: SlipPayload = {
  epk: 'basketball/us/nba/a_v_b/2026-11-22',
  sport: 'basketball',
  eventName: 'A v B',
  bookie: 'bookie_a',
  sessionId: 's-1',
  marketKey: 'head_to_head',
  marketLabel: 'Head to head',
  selectionLabel: 'A',
  marketRef: 'ref-1',
  stakeCents: 1000,
  shownOdds: 2.0,
};

describe('odds maths', () => {
  it('computes the potential return to the cent', () => {
    expect(potentialReturnCents(1000, 1.95)).toBe(1950);
    expect(potentialReturnCents(333, 2.17)).toBe(723);
  });

  it('derives the price floor from the tolerance and min odds', () => {
    expect(acceptableFloor(2.0, 0.02)).toBe(1.96);
    expect(acceptableFloor(2.0, 0.02, 1.99)).toBe(1.99);
  });

  it('parses stakes as people type them and refuses the rest', () => {
    expect(parseCents('10')).toBe(1000);
    expect(parseCents('$12.50')).toBe(1250);
    expect(parseCents('1,000')).toBe(100_000);
    expect(parseCents('ten')).toBeUndefined();
    expect(parseCents('1.234')).toBeUndefined();
    expect(parseCents('-5')).toBeUndefined();
  });
});

describe('slip rules', () => {
  const limits = { perBetCents: 5000, perDayCents: 20_000 };
  /** A stake typed as a Discord number option, read into cents and checked against the limits as /bet does. */
  const typed = (dollars: number) => {
    const read = readStakeOption(dollars);
    return read.ok ? checkStake(read.cents, limits) : read;
  };

  it('refuses a zero stake with what to enter instead', () => {
    const r = checkStake(0, limits);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(/more than \$0/);
    expect(typed(0)).toEqual(r);
  });

  it('refuses a stake above the per-bet limit and names the limit, comparing cents', () => {
    const r = checkStake(5001, limits);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain('$50.00');
    expect(checkStake(5000, limits).ok).toBe(true);
    expect(typed(51).ok).toBe(false);
  });

  it('says a negative stake is negative, not that it has too many decimals', () => {
    const r = typed(-5);
    expect(r.ok ? '' : r.message).toBe('The stake -5 is negative. Enter an amount such as 10 or 12.50.');
  });

  it('says a huge stake (1e9) is above the per-bet limit, naming both amounts', () => {
    expect(readStakeOption(1e9)).toEqual({ ok: true, cents: 100_000_000_000 });
    const r = typed(1e9);
    expect(r.ok ? '' : r.message).toMatch(
      /^The stake \$1,000,000,000\.00 is above this server's per-bet limit of \$50\.00\./,
    );
  });

  it('says a negative stake typed in the stake form is negative', () => {
    const form = { fields: { getTextInputValue: () => '-5' } } as unknown as ModalSubmitInteraction;
    const r = readStake(form);
    expect(r.ok ? '' : r.message).toMatch(/^"-5" is negative: a stake is more than \$0\./);
  });

  it('reads the stake form into whole cents', () => {
    const form = { fields: { getTextInputValue: () => '12.50' } } as unknown as ModalSubmitInteraction;
    expect(readStake(form)).toEqual({ ok: true, cents: 1250 });
  });

  it('refuses fractions of a cent', () => {
    const r = typed(1.005);
    expect(r.ok ? '' : r.message).toBe(
      'The stake must be dollars and whole cents, with at most two decimals, e.g. 10 or 12.50.',
    );
    expect(typed(12.501).ok).toBe(false);
    expect(checkStake(1000.5, limits)).toEqual(r);
  });

  it('refuses sub-cent stakes that a float tolerance would let through (1e-9, 10.000000001)', () => {
    expect(readStakeOption(1e-9).ok).toBe(false);
    expect(readStakeOption(10.000000001).ok).toBe(false);
  });

  it('turns stake text into whole cents without floating point', () => {
    expect(parseCents('0.29')).toBe(29);
    expect(parseCents('$1,250.7')).toBe(125_070);
    expect(parseCents(1.1)).toBe(110);
    expect(parseCents('1e2')).toBeUndefined();
  });

  it('reads whole-cent stakes that binary floats cannot represent exactly to their exact cents', () => {
    const cases: Array<[number, number]> = [
      [0.29, 29],
      [1.09, 109],
      [1.1, 110],
      [1.11, 111],
      [4.35, 435],
      [19.99, 1999],
      [49.99, 4999],
    ];
    for (const [dollars, cents] of cases) {
      expect(readStakeOption(dollars), String(dollars)).toEqual({ ok: true, cents });
      expect(checkStake(cents, limits), String(dollars)).toEqual({ ok: true });
    }
  });

  it('refuses min odds above the shown price', () => {
    expect(checkMinOdds(2.5, 2.0).ok).toBe(false);
    expect(checkMinOdds(1.8, 2.0).ok).toBe(true);
    expect(checkMinOdds(0.5, 2.0).ok).toBe(false);
  });

  it('accepts a live price within the tolerance', () => {
    expect(decideOnLivePrice(slip, 1.97, 0.02)).toEqual({ ok: true, floor: 1.96 });
  });

  it('refuses a live price that fell more than the tolerance, quoting the new price', () => {
    const d = decideOnLivePrice(slip, 1.8, 0.02);
    expect(d.ok).toBe(false);
    if (!d.ok) expect(d.message).toContain('1.80');
  });

  it('refuses a live price below min odds even inside the tolerance', () => {
    const d = decideOnLivePrice({ ...slip, minOdds: 1.99 }, 1.97, 0.05);
    expect(d.ok).toBe(false);
    if (!d.ok) expect(d.message).toMatch(/min_odds 1.99/);
  });
});
