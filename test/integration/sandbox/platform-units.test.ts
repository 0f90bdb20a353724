// Pure parts of the platform, without a server: the clock, settlement money, bonus splits, fault configs.
import { afterEach, describe, expect, it } from 'vitest';
import { splitBonusBet, splitOptions, takeBonusToken } from '../../../src/sandbox/accounts/bonus.js';
import { settle } from '../../../src/sandbox/accounts/settlement.js';
import type { BookAccount } from '../../../src/sandbox/accounts/types.js';
import { acceptCallbackUrl } from '../../../src/sandbox/core/callback-url.js';
import { SandboxClock } from '../../../src/sandbox/core/clock.js';
import { parseFaultConfig } from '../../../src/sandbox/core/faults.js';

const clocks: SandboxClock[] = [];
afterEach(() => {
  for (const c of clocks.splice(0)) c.stop();
});
const clock = (opts: ConstructorParameters<typeof SandboxClock>[0]) => {
  const c = new SandboxClock(opts);
  clocks.push(c);
  return c;
};

describe('SandboxClock', () => {
  it('starts at the given time and reports today in UTC', () => {
    const c = clock({ start: new Date('2026-05-01T23:59:59Z') });
    expect(c.today()).toBe('2026-05-01');
    c.advance(1_000);
    expect(c.today()).toBe('2026-05-02');
  });

  it('fires timers passed by advance() at once, in due order, and not the later ones', () => {
    const c = clock({ start: new Date('2026-01-01T00:00:00Z') });
    const fired: string[] = [];
    c.schedule(3_000, () => fired.push('c'));
    c.schedule(1_000, () => fired.push('a'));
    c.schedule(2_000, () => fired.push('b'));
    c.schedule(60_000, () => fired.push('late'));
    c.advance(5_000);
    expect(fired).toEqual(['a', 'b', 'c']);
    expect(c.pendingTimers).toBe(1);
  });

  it('fires a timer scheduled by a firing timer when it is already due', () => {
    const c = clock({});
    const fired: string[] = [];
    c.schedule(1_000, () => {
      fired.push('first');
      c.schedule(500, () => fired.push('second'));
    });
    c.advance(2_000);
    expect(fired).toEqual(['first', 'second']);
  });

  it('runs timers in real time divided by speed', async () => {
    const c = clock({ speed: 100 });
    const done = new Promise<void>((resolve) => c.schedule(1_000, resolve)); // 10 real ms
    await done;
    expect(c.pendingTimers).toBe(0);
  });

  it('cancels timers, tells listeners after an advance, and fires nothing once stopped', () => {
    const c = clock({});
    let fired = 0;
    const t = c.schedule(1_000, () => fired++);
    t.cancel();
    const seen: Date[] = [];
    c.onAdvance((now) => seen.push(now));
    c.advance(2_000);
    expect(fired).toBe(0);
    expect(seen).toHaveLength(1);
    c.schedule(10, () => fired++);
    c.stop();
    c.advance(100);
    expect(fired).toBe(0);
  });

  it('refuses a non-positive speed and a negative advance', () => {
    expect(() => new SandboxClock({ speed: 0 })).toThrow(/speed/);
    expect(() => clock({}).advance(-1)).toThrow(/non-negative/);
  });

  it('refuses a time a Date cannot hold, and keeps its own', () => {
    const c = clock({ start: new Date('2026-11-21T09:00:00Z') });
    expect(() => c.advance(1e308)).toThrow(RangeError);
    expect(() => c.setNow(Number.NaN)).toThrow(RangeError);
    expect(c.now().toISOString()).toMatch(/^2026-11-21T09:00/);
  });
});

describe('settlement money', () => {
  it('pays a won cash bet stake × odds and reports the winnings as pnl', () => {
    expect(settle(10, 2.5, false, 'won')).toEqual({ pnl: 15, credit: 25 });
  });
  it('reports a lost cash bet as minus the stake', () => {
    expect(settle(10, 2.5, false, 'lost')).toEqual({ pnl: -10, credit: 0 });
  });
  it('pays a won bonus bet only its winnings and a lost one nothing at pnl 0', () => {
    expect(settle(10, 2.5, true, 'won')).toEqual({ pnl: 15, credit: 15 });
    expect(settle(10, 2.5, true, 'lost')).toEqual({ pnl: 0, credit: 0 });
  });
  it('credits a won cash bet exactly its stake plus its pnl, even where the return rounds at a half cent', () => {
    // $0.02 at 7.25 returns 14.5 cents: rounded once, the credit is 15 cents and the pnl 13.
    expect(settle(0.02, 7.25, false, 'won')).toEqual({ pnl: 0.13, credit: 0.15 });
  });
  it('refunds a void cash bet and pays a cash-out its payout', () => {
    expect(settle(10, 2.5, false, 'void')).toEqual({ pnl: 0, credit: 10 });
    expect(settle(10, 2.5, false, 'cashed_out', 14)).toEqual({ pnl: 4, credit: 14 });
  });
});

function book(amounts: number[]): BookAccount {
  return {
    account_id: 'acct',
    owner: 'owner',
    bookie: 'bookie_a',
    username: 'u',
    cash: 0,
    bonusTokens: amounts.map((amount, i) => ({
      id: `t${i}`,
      amount,
      status: 'AVAILABLE',
      expiry: '',
      description: '',
    })),
  };
}

describe('bonus tokens', () => {
  it('offers split counts that divide into whole cents, aligned with the piece values', () => {
    expect(splitOptions(25)).toEqual({ split_options: [2, 4, 5, 10], split_amounts: [12.5, 6.25, 5, 2.5] });
    expect(splitOptions(10)).toEqual({ split_options: [2, 4, 5, 10], split_amounts: [5, 2.5, 2, 1] });
    expect(splitOptions(5)).toEqual({ split_options: [], split_amounts: [] });
  });

  it('splits the smallest token above max_amount into the fewest pieces not above it', () => {
    const b = book([50, 25, 5]);
    const r = splitBonusBet(b, 6.5);
    expect(r).toMatchObject({ success: true, token_id: 't1', num_splits: 4, new_amount_per_bet: 6.25 });
    expect(b.bonusTokens.filter((t) => t.status === 'AVAILABLE' && t.amount === 6.25)).toHaveLength(4);
    expect(b.bonusTokens.find((t) => t.id === 't1')!.status).toBe('SPLIT');
  });

  it('spends the token equal to the stake first, else the largest below it, else none', () => {
    const b = book([5, 10, 20]);
    expect(takeBonusToken(b, 10)!.id).toBe('t1');
    expect(takeBonusToken(b, 15)!.id).toBe('t0');
    expect(takeBonusToken(b, 15)).toBeUndefined();
  });
});

describe('fault config and callback URLs', () => {
  it('accepts a full fault config and names a bad field', () => {
    expect(
      parseFaultConfig({ latency: { fixedMs: 5 }, errorRates: { '*': 0.1 }, stuckJobs: 0, webhookFailures: 1 }),
    ).toEqual({
      latency: { fixedMs: 5 },
      errorRates: { '*': 0.1 },
      stuckJobs: 0,
      webhookFailures: 1,
    });
    expect(() => parseFaultConfig({ stuckJobs: 1.5 })).toThrow(/stuckJobs/);
    expect(() => parseFaultConfig({ latency: { fixedMs: -1 } })).toThrow(/latency.fixedMs/);
    expect(() => parseFaultConfig([])).toThrow(/JSON object/);
  });

  it('registers loopback http(s) callbacks only', () => {
    expect(acceptCallbackUrl('http://127.0.0.1:8790/webhooks/gateway')).toBe('http://127.0.0.1:8790/webhooks/gateway');
    expect(acceptCallbackUrl('http://localhost/x')).toBe('http://localhost/x');
    expect(acceptCallbackUrl('http://[::1]:9/x')).toBe('http://[::1]:9/x');
    expect(acceptCallbackUrl('https://hooks.example.com/x')).toBeNull();
    expect(acceptCallbackUrl(undefined)).toBeNull();
    expect(() => acceptCallbackUrl('not a url')).toThrow();
  });
});
