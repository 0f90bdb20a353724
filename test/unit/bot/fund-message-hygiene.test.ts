// The fund's views under the same rule as every other view (test/unit/bot/message-hygiene.test.ts): no raw
// session UUID, no internal record id outside a footer labelled for support, no HTTP path, no unformatted amount.
import { describe, expect, it } from 'vitest';
import type { Cashout, Contribution, StrikeRecord } from '../../../src/bot/fund/model/fund-records.js';
import {
  cashoutRequestView,
  membersView,
  monthlyStatementHeader,
  statementView,
  strikeView,
} from '../../../src/bot/fund/views/fund.js';
import type { MessageView } from '../../../src/bot/model/limits.js';
import { strikeFixture } from '../../support/fund-fixtures.js';
import { hygieneViolations } from '../../support/message-hygiene.js';

const SESSION_A = '5e55a1fa-0000-4000-8000-00000000000a';
const T = Date.parse('2026-11-27T15:17:30Z');
const BEN = '1200000000000000012';
const U = 1_000_000;

const base = strikeFixture({ strikeId: 'fs-7c1d0b7e-3a53-4a4e-9a39-2b4b8c1f0d11', at: T });
const strike: StrikeRecord = {
  ...base,
  inputs: {
    ...base.inputs,
    sessions: [
      { sessionId: SESSION_A, balanceCents: 162_500, bonusCents: 2_500, retrievedAt: '2026-11-27T15:17:30.000Z' },
    ],
  },
};

const cashout: Cashout = {
  cashoutId: 'fo-e0733556-39ea-4a4e-9a39-2b4b8c1f0d11',
  memberId: BEN,
  ask: { kind: 'amount', cents: 25_000 },
  state: 'withdrawn',
  approvedBy: null,
  strikeId: strike.strikeId,
  units: 250 * U,
  cents: 25_000,
  note: null,
  requestedAt: T,
} as Cashout;

const unmatched: Contribution = {
  contributionId: 'fc-0b7e7c1d-3a53-4a4e-9a39-2b4b8c1f0d11',
  memberId: BEN,
  amountCents: 10_000,
  sessionId: SESSION_A,
  reference: null,
  state: 'pending',
  strikeId: null,
  units: null,
  depositId: null,
  createdAt: T,
} as Contribution;

const FUND_VIEWS: Record<string, () => MessageView> = {
  strike: () => strikeView(strike, [unmatched]),
  statement: () =>
    statementView({
      units: 1600 * U,
      valueCents: 160_000,
      share: 1,
      contributedCents: 160_000,
      cashedOutCents: 0,
      pendingCents: 0,
      profitCents: 0,
      returnRatio: 0,
      perUnitReturn: 0,
      residualCent: false,
      lastStrike: strike,
      openCashouts: [cashout],
    }),
  members: () =>
    membersView({
      last: strike,
      shares: [{ memberId: BEN, units: 1600 * U, cents: 160_000 } as never],
      residualCents: 0,
      cashouts: [cashout],
    }),
  'cash-out request': () => cashoutRequestView({ ...cashout, state: 'awaiting_approval' }, true),
};

describe("what the fund's views show members and treasurers (issue 32)", () => {
  it.each(Object.keys(FUND_VIEWS))(
    '%s: no session UUID, internal id, HTTP path, unformatted amount or typographic minus',
    (name) => {
      expect(hygieneViolations(FUND_VIEWS[name]?.() as MessageView)).toEqual([]);
    },
  );

  it('names accounts by book and user name, and keeps the record ids in a footer for support', () => {
    const view = strikeView(
      {
        ...strike,
        inputs: { ...strike.inputs, sessions: [{ ...strike.inputs.sessions[0]!, account: 'bookie_a/alpha_a' }] },
      },
      [unmatched],
    );
    const embed = view.embeds[0]!;
    expect(embed.fields?.[0]?.value).toContain('bookie_a/alpha_a: balance $1,625.00 - bonus $25.00 = cash $1,600.00');
    expect(embed.description).toContain(`<@${BEN}> $100.00 into bookie_a/alpha_a`);
    expect(embed.footer?.text).toBe(`For support: strike ${strike.strikeId}`);
    const members = membersView({
      last: strike,
      shares: [{ memberId: BEN, units: 1600 * U, cents: 160_000 } as never],
      residualCents: 0,
      cashouts: [cashout],
    }).embeds[0]!;
    expect(members.fields?.[0]?.value).toContain(`<@${BEN}> $250.00: withdrawn: pay them, then /fund paid`);
    expect(members.footer?.text).toBe(`For support: ${cashout.cashoutId}`);
  });
});

describe('a strike post says what it dealt', () => {
  const ANN = '1200000000000000011';
  it('names each member’s units issued for their contribution and redeemed for their cash-out, at the strike’s price', () => {
    const dealtStrike: StrikeRecord = {
      ...strike,
      inputs: {
        ...strike.inputs,
        dealt: {
          issued: [{ memberId: ANN, cents: 5_000, units: 48_580_000 }],
          redeemed: [{ memberId: BEN, cents: 10_292, units: 100 * U }],
        },
      },
    };
    const text = strikeView(dealtStrike).embeds[0]?.description ?? '';
    expect(text).toContain(`Units issued: <@${ANN}> 48.580000 for $50.00 (at `);
    expect(text).toContain(`Units redeemed: <@${BEN}> 100.000000 for $102.92 (owed until withdrawn and paid).`);
  });

  it('names contributions it deals as kept out of the NAV they buy at, not as "awaiting dealing" (issue 45)', () => {
    const dealing: StrikeRecord = { ...strike, inputs: { ...strike.inputs, pendingContributionsCents: 10_000 } };
    const text = JSON.stringify(strikeView(dealing).embeds[0]);
    expect(text).toContain('Contributions matched to their deposits, kept out of the NAV they buy units at: -$100.00');
    expect(text).not.toContain('awaiting dealing');
  });

  it('gives the true reason a request waits: open bets, never a deposit still to arrive', () => {
    const waiting: StrikeRecord = {
      ...strike,
      inputs: { ...strike.inputs, deferred: { contributions: 1, cashouts: 0 } },
    };
    const text = strikeView(waiting, [unmatched]).embeds[0]?.description ?? '';
    expect(text).toContain('1 contribution and 0 cash-outs wait for the bets open when they were asked to settle');
    expect(text).toContain(`Waiting for their deposit (not dealt, not in NAV until the bookmaker lists it): <@${BEN}>`);
    expect(text).not.toContain('decision 1701');
  });
});

describe('the monthly statement', () => {
  it('opens with a sentence a person would write, naming the month, not "2026-11 opens"', () => {
    expect(monthlyStatementHeader('2026-11')).toBe(
      "The fund as November 2026 opens: every member's units and value at the last strike.",
    );
    expect(monthlyStatementHeader('2027-01')).toContain('January 2027');
  });
});
