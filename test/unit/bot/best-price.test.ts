import { describe, expect, it } from 'vitest';
import {
  cashCents,
  leaveOutOfFund,
  noBookText,
  OUTSIDE_FUND,
  rankPrices,
  routeOf,
} from '../../../src/bot/betting/handlers/best-price.js';
import type { Proposal } from '../../../src/bot/betting/proposals.js';
import { proposalView } from '../../../src/bot/betting/views/proposal.js';
import { leftOutLine, routeLine, slipView } from '../../../src/bot/betting/views/slip.js';
import { type BookCheck, leftOutText } from '../../../src/bot/catalog/model/eligibility.js';
import type { SlipPayload } from '../../../src/bot/model/slip-rules.js';

const STAKE = 10_00;

/** A session that got as far as a live price, with $500 cash unless told. */
const priced = (bookie: string, price: number, more: Partial<BookCheck> = {}): BookCheck => ({
  bookie,
  sessionId: `s-${bookie}`,
  marketRef: `ref-${bookie}`,
  balanceCents: 500_00,
  price,
  ...more,
});

const winner = (checks: BookCheck[], stakeCents = STAKE) => rankPrices(checks, stakeCents).ranked[0]?.bookie;

describe('best-price routing rule', () => {
  it('routes to the highest live price', () => {
    expect(winner([priced('bookie_a', 2.05), priced('bookie_b', 2.1), priced('bookie_c', 2.0)])).toBe('bookie_b');
  });

  it('ranks every priced book best first', () => {
    const { ranked } = rankPrices([priced('bookie_a', 2.05), priced('bookie_b', 2.1), priced('bookie_c', 2.0)], STAKE);
    expect(ranked.map((r) => r.bookie)).toEqual(['bookie_b', 'bookie_a', 'bookie_c']);
  });

  it('breaks a price tie by the larger cash balance', () => {
    const checks = [
      priced('bookie_a', 2.1, { balanceCents: 100_00 }),
      priced('bookie_c', 2.1, { balanceCents: 900_00 }),
    ];
    expect(winner(checks)).toBe('bookie_c');
  });

  it('breaks a tie of price and balance by the book name, whatever the order the answers came in', () => {
    expect(winner([priced('bookie_c', 2.1), priced('bookie_a', 2.1)])).toBe('bookie_a');
    expect(winner([priced('bookie_a', 2.1), priced('bookie_c', 2.1)])).toBe('bookie_a');
  });

  it('breaks a tie between two sessions of one book by session id', () => {
    const checks = [priced('bookie_a', 2.1, { sessionId: 's-2' }), priced('bookie_a', 2.1, { sessionId: 's-1' })];
    expect(rankPrices(checks, STAKE).ranked[0]?.sessionId).toBe('s-1');
  });

  it('treats prices equal to the thousandth as a tie (float noise does not pick the book)', () => {
    const checks = [priced('bookie_c', 2.1 + 1e-12, { balanceCents: 100_00 }), priced('bookie_a', 2.1)];
    expect(winner(checks)).toBe('bookie_a');
  });

  it('passes over the best price when its balance is below the stake', () => {
    const checks = [priced('bookie_b', 2.2, { balanceCents: 9_99 }), priced('bookie_a', 2.05)];
    expect(winner(checks)).toBe('bookie_a');
  });

  it('takes a balance exactly equal to the stake', () => {
    expect(winner([priced('bookie_b', 2.2, { balanceCents: STAKE }), priced('bookie_a', 2.05)])).toBe('bookie_b');
  });

  it('says how far short a left-out balance is', () => {
    const { leftOut } = rankPrices([priced('bookie_b', 2.2, { balanceCents: 9_99 })], STAKE);
    expect(leftOut.map((c) => leftOutText(c.leftOut ?? { kind: 'no_price' }, STAKE))).toEqual([
      'balance $9.99 is below the $10.00 stake',
    ]);
  });

  it('leaves out a session with no live price', () => {
    const { ranked, leftOut } = rankPrices([priced('bookie_a', 2.1), priced('bookie_c', 2.3, { price: null })], STAKE);
    expect([ranked.map((r) => r.bookie), leftOut.map((c) => c.leftOut?.kind)]).toEqual([['bookie_a'], ['no_price']]);
  });

  it('finds no book when none is eligible, and keeps every reason', () => {
    const { ranked, leftOut } = rankPrices(
      [
        { bookie: 'bookie_b', sessionId: 's-b', leftOut: { kind: 'market_ref_off' } },
        priced('bookie_a', 2.1, { balanceCents: 5_00 }),
        { bookie: 'bookie_c', sessionId: 's-c', leftOut: { kind: 'not_listed', what: 'Home in Match result' } },
      ],
      STAKE,
    );
    expect([ranked, leftOut.map((c) => c.leftOut?.kind)]).toEqual([
      [],
      ['market_ref_off', 'balance_short', 'not_listed'],
    ]);
  });
});

describe('what the slip says about its book', () => {
  const { ranked, leftOut } = rankPrices(
    [
      priced('bookie_a', 2.05),
      priced('bookie_b', 2.1),
      priced('bookie_c', 2.0),
      { bookie: 'bookie_d', sessionId: 's-d', leftOut: { kind: 'market_ref_off' } },
      priced('bookie_e', 2.5, { balanceCents: 3_00 }),
      { bookie: 'bookie_f', sessionId: 's-f', leftOut: { kind: 'not_listed', what: 'Home in Match result' } },
    ],
    STAKE,
  );
  const route = routeOf(ranked, leftOut, STAKE);
  const routedSlip = {
    route,
    selectionLabel: 'Home',
    marketLabel: 'Match result',
    eventName: 'A v B',
    bookie: 'bookie_b',
    sessionId: 's-bookie_b',
    marketRef: 'ref-bookie_b',
    stakeCents: 1000,
    shownOdds: 2.1,
  } as SlipPayload;

  it('names the best price, the number of books priced and the others', () => {
    expect(routeLine(route)).toBe('Best price of 3 books: bookie_b 2.10 (bookie_a 2.05, bookie_c 2.00)');
  });

  it('names each book left out and why', () => {
    expect(leftOutLine(route)).toBe(
      'Left out: bookie_d (not taking bets on this event); bookie_e (balance $3.00 is below the $10.00 stake); bookie_f (does not list Home in Match result)',
    );
  });

  it('puts both lines on the slip', () => {
    const view = slipView({ slip: routedSlip, slipId: 'x', userId: 'u', expiresAt: 0 });
    expect(view.embeds?.[0]?.description).toBe(`${routeLine(route)}\n${leftOutLine(route)}`);
  });

  it('tells approvers the same when the stake makes the slip a proposal', () => {
    const proposal = {
      proposalId: 'p',
      needed: 1,
      shownOdds: 2.1,
      expiresAt: 0,
      stakeCents: 60_00,
      note: null,
    } as Proposal;
    const view = proposalView({
      proposal,
      slip: { ...routedSlip, stakeCents: 60_00 },
      approvals: [],
      approverRoleId: undefined,
    });
    expect(view.embeds?.[0]?.description).toBe(`${routeLine(route)}\n${leftOutLine(route)}`);
  });

  it('tells the member what to do when no book can take the bet', () => {
    const none = routeOf(
      [],
      [{ bookie: 'bookie_a', sessionId: 's', leftOut: { kind: 'balance_short', balanceCents: 5_00 } }],
      STAKE,
    );
    expect(noBookText(none)).toBe(
      'No book can take this bet (bookie_a: balance $5.00 is below the $10.00 stake). Try a smaller stake, start a session with /sessions, or pick a book with the bookie option.',
    );
  });
});

describe("routing the fund's stake", () => {
  it('gives every book outside the fund that reason, whatever else it lacked', () => {
    const checks: BookCheck[] = [
      priced('bookie_a', 2.05),
      priced('bookie_c', 2.4, { leftOut: { kind: 'no_price' } }),
      priced('bookie_b', 2.2),
    ];
    const sessions = ['a', 'b', 'c'].map((x) => ({
      session_id: `s-bookie_${x}`,
      bookie: `bookie_${x}`,
      username: `alpha_${x}`,
    }));
    leaveOutOfFund(checks, sessions as never, new Set(['bookie_a/alpha_a']));
    expect(checks.map((c) => c.leftOut && leftOutText(c.leftOut))).toEqual([undefined, OUTSIDE_FUND, OUTSIDE_FUND]);
    // The slip says it once for both, without a parenthesis inside another (issue 45; fund.md: "left out: outside the
    // fund").
    const line = leftOutLine(
      routeOf(
        [],
        checks.filter((c) => c.leftOut),
        STAKE,
      ),
    );
    expect(line).toBe(
      "Left out: bookie_c, bookie_b (outside the fund: not the fund's accounts; name the book with bookie: to bet outside it)",
    );
  });
});

describe('cash that can take a stake', () => {
  it('is the balance less its bonus part, in whole cents', () => {
    expect(cashCents({ balance: 845.5, bonus_balance: 25 })).toBe(820_50);
  });

  it('is the whole balance when the record has no bonus part', () => {
    expect(cashCents({ balance: 0.3 })).toBe(30);
  });
});
