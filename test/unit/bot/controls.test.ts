import { describe, expect, it } from 'vitest';
import { exposureReport, type Stake } from '../../../src/bot/betting/exposure.js';
import {
  approvalPolicy,
  approvalsNeeded,
  tooFewApproversText,
} from '../../../src/bot/betting/model/approval-policy.js';
import type { GuildSettings } from '../../../src/bot/settings/guild-settings.js';

const settings = (over: Partial<GuildSettings> = {}): GuildSettings => ({ timezone: 'UTC', sessions: {}, ...over });

describe('approval tiers', () => {
  it('needs none up to t1, one up to t2 and two above, by default $50 and $100', () => {
    const p = approvalPolicy(settings());
    expect([5_000, 5_001, 10_000, 10_001].map((c) => approvalsNeeded(p, c))).toEqual([0, 1, 1, 2]);
    expect(p.expiryMs).toBe(600_000);
  });

  it('follows the server’s tiers and expiry', () => {
    const p = approvalPolicy(settings({ approvalT1Cents: 500, approvalT2Cents: 1000, approvalMinutes: 0.25 }));
    expect([500, 501, 1_000, 1_001].map((c) => approvalsNeeded(p, c))).toEqual([0, 1, 1, 2]);
    expect(p.expiryMs).toBe(15_000);
  });

  it('refuses a stake the server has too few approvers for, offering the stake that needs none when it has none', () => {
    const p = approvalPolicy(settings({ approvalT1Cents: 5000, approvalT2Cents: 10_000 }));
    expect(tooFewApproversText(p, 6_000, 1)).toBeUndefined();
    expect(tooFewApproversText(p, 10_001, 2)).toBeUndefined();
    expect(tooFewApproversText(p, 6_000, 0)).toBe(
      'Not proposed: a $60.00 stake needs 1 approval from members with Manage Server, not counting you, and this server has none, so it could never pass. Lower the stake to $50.00 or less (no approval needed), or ask an admin to give another member Manage Server or name an approver role (/settings approvals approver_role:), or to raise the tiers (/settings approvals t1: t2:).',
    );
  });
});

describe('/exposure figures', () => {
  const stake = (over: Partial<Stake>): Stake => ({
    epk: 'e1',
    eventName: 'A v B',
    marketKey: 'm1',
    marketLabel: 'Moneyline',
    userId: 'u1',
    sessionId: 's1',
    bookie: 'bookie_a',
    stakeCents: 1_000,
    open: true,
    today: true,
    ...over,
  });

  it('sums open stakes per event and market and today’s stakes per member and account, with the room under each cap', () => {
    const r = exposureReport({
      stakes: [
        stake({}),
        stake({ userId: 'u2', sessionId: 's2', stakeCents: 2_550 }),
        stake({ marketKey: 'm2', marketLabel: 'Total', stakeCents: 700 }),
        stake({ epk: 'e2', eventName: 'C v D', open: false, stakeCents: 5_000 }),
      ],
      settings: settings({ maxPerEventCents: 5000, maxPerSessionDayCents: 10_000, maxPerSyndicateDayCents: 20_000 }),
      memberDayCents: 50_000,
    });
    expect(r.totalOpenCents).toBe(4_250);
    expect(r.events).toEqual([{ label: 'A v B', cents: 4_250, capCents: 5_000 }]);
    expect(r.markets.map((m) => [m.label, m.cents, m.capCents])).toEqual([
      ['A v B · Moneyline', 3_550, undefined],
      ['A v B · Total', 700, undefined],
    ]);
    expect(r.members).toEqual([
      { label: '<@u1>', cents: 6_700, capCents: 50_000 },
      { label: '<@u2>', cents: 2_550, capCents: 50_000 },
    ]);
    expect(r.accounts.find((a) => a.label === 'bookie_a · s1')?.cents).toBe(6_700);
    expect(r.syndicateDay).toEqual({ label: 'The syndicate today', cents: 9_250, capCents: 20_000 });
  });

  it('names each account by its book and user name, keeping the session id only for a session it cannot name', () => {
    const r = exposureReport({
      stakes: [stake({}), stake({ sessionId: 's2', stakeCents: 500 })],
      settings: settings({}),
      memberDayCents: 50_000,
      accountNames: { s1: 'alpha_a' },
    });
    expect(r.accounts.map((a) => a.label)).toEqual(['bookie_a · alpha_a', 'bookie_a · s2']);
  });
});
