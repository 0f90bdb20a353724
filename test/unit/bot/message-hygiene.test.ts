// No message a member or treasurer sees holds a raw session UUID, an internal record id outside a footer labelled
// for support, an HTTP path or an unformatted amount (issue 32): every desk view, built from fixtures shaped like
// the sandbox's (its session ids are UUIDs, amounts reach the thousands).
import { describe, expect, it } from 'vitest';
import { accountStateNoticeView, accountsView } from '../../../src/bot/accounts/views/accounts.js';
import type { BetFact } from '../../../src/bot/analytics/facts.js';
import { multiPart } from '../../../src/bot/analytics/multis.js';
import { report } from '../../../src/bot/analytics/report.js';
import { skillOf } from '../../../src/bot/analytics/skill.js';
import { leaderboardView, statsView } from '../../../src/bot/analytics/views/stats.js';
import { settlementOf } from '../../../src/bot/betting/model/settlement.js';
import type { Proposal } from '../../../src/bot/betting/proposals.js';
import { balancesView, jobsView, sessionsView, settingsView } from '../../../src/bot/betting/views/desk.js';
import { exposureView } from '../../../src/bot/betting/views/exposure.js';
import { missingBetView, settlementView } from '../../../src/bot/betting/views/notice.js';
import { proposalClosedView, proposalView, reminderView } from '../../../src/bot/betting/views/proposal.js';
import {
  closedSlipView,
  jobLostView,
  receiptView,
  slipView,
  submittedView,
} from '../../../src/bot/betting/views/slip.js';
import { cardView, marketView } from '../../../src/bot/catalog/views/card.js';
import { eventsView } from '../../../src/bot/catalog/views/events.js';
import type { JobRecord } from '../../../src/bot/jobs/jobs-repo.js';
import type { MessageView } from '../../../src/bot/model/limits.js';
import type { SlipPayload } from '../../../src/bot/model/slip-rules.js';
import type { GuildSettings } from '../../../src/bot/settings/guild-settings.js';
import type { AlertFacts } from '../../../src/bot/watch/model/watch-rules.js';
import {
  alertedText,
  alertsFoldedView,
  alertView,
  freshnessText,
  watchListView,
} from '../../../src/bot/watch/views/watch.js';
import type { Watch } from '../../../src/bot/watch/watches-repo.js';
import type { MarketCard, Session, Transaction } from '../../../src/gateway/index.js';
import { hygieneViolations } from '../../support/message-hygiene.js';

const SESSION_A = '5e55a1fa-0000-4000-8000-00000000000a';
const SESSION_B = '5e55a1fa-0000-4000-8000-00000000000b';
const SESSION_B2 = '5e55a1fa-0000-4000-8000-0000000000b2';
const CORRELATION = '0f6d6c1e-3a53-4a4e-9a39-2b4b8c1f0d11';
const T = Date.parse('2026-11-27T15:17:30Z');
const BEN = '1200000000000000012';
const ADA = '1200000000000000011';

/** Forty of Ben's bets, all lost, at prices a little above the close. */
const facts: BetFact[] = Array.from({ length: 40 }, (_, i) => ({
  betId: `b${i}`,
  member: BEN,
  book: 'bookie_a',
  session: 's1',
  sport: 'basketball_nba',
  placedAt: 0,
  stakeCents: 1_000,
  oddsTaken: 2 + (i % 5) / 50,
  status: 'lost' as const,
  returnCents: 0,
  closeOdds: 2,
  closeMarket: null,
}));

/** Three of them were same-race multis of $1,250.00 each, closed at their fair chance. */
const withMultis: BetFact[] = facts.map((f, i) =>
  i < 3
    ? {
        ...f,
        multiLegs: 2 + i,
        stakeCents: 125_000,
        closeMarket: { kind: 'fair', probability: 0.1, books: ['bookie_a'], method: 'multiplicative' },
      }
    : f,
);

const sessions: Session[] = [
  { session_id: SESSION_A, bookie: 'bookie_a', username: 'alpha_a', active: true },
  { session_id: SESSION_B, bookie: 'bookie_b', username: 'alpha_b', active: true },
  { session_id: SESSION_B2, bookie: 'bookie_b', username: 'alpha_b', active: false },
] as Session[];

const slip: SlipPayload = {
  epk: 'nba-lal-bos-2026-11-28',
  sport: 'basketball',
  league: 'nba',
  eventName: 'Lakers v Celtics',
  bookie: 'bookie_a',
  sessionId: SESSION_A,
  account: 'alpha_a',
  marketKey: 'h2h',
  marketLabel: 'Head to head',
  selectionLabel: 'Lakers',
  marketRef: 'mref-1',
  stakeCents: 125_000,
  shownOdds: 2.1,
  startTime: '2026-11-28T01:00:00Z',
  userId: BEN,
};

const proposal: Proposal = {
  proposalId: 'p1',
  slipId: 's1',
  guildKey: 'g',
  guildId: 'g',
  channelId: 'c',
  messageId: 'm',
  proposerId: BEN,
  sessionId: SESSION_A,
  bookie: 'bookie_a',
  epk: slip.epk,
  marketKey: 'h2h',
  marketRef: 'mref-1',
  day: '2026-11-27',
  stakeCents: 125_000,
  shownOdds: 2.1,
  needed: 2,
  round: 1,
  state: 'open',
  note: null,
  reminded: false,
  remindAt: T,
  expiresAt: T + 600_000,
  createdAt: T,
  updatedAt: T,
} as Proposal;

const card: MarketCard = {
  epk: slip.epk,
  bookie: 'bookie_a',
  bound: true,
  market_ref_betting_enabled: true,
  markets: [
    {
      market: 'h2h',
      label: 'Head to head',
      tier: 'popular',
      selections: [
        { label: 'Lakers', odds: 2.1, line: null, market_ref: 'mref-1', bettable: true },
        { label: 'Celtics', odds: 1.8, line: null, market_ref: 'mref-2', bettable: true },
      ],
    },
  ],
} as MarketCard;

const settings = {
  timezone: 'UTC',
  betRoleId: '1200000000000000201',
  bankCents: 1_250_000,
  bankSetAt: T,
  maxStakePerBetCents: 150_000,
  maxPerEventCents: 2_500_000,
  fundFeePercent: 20,
  fundFeeManagerId: ADA,
  sessions: { bookie_b: SESSION_B2 },
} as GuildSettings;

const job: JobRecord = {
  correlationId: CORRELATION,
  kind: 'place_bet',
  guildId: 'g',
  channelId: 'c',
  messageId: 'm',
  userId: BEN,
  sessionId: SESSION_A,
  envelope: {},
  context: { slip },
  state: 'posted',
  outcome: { success: true, bet_id: 'B-77', odds: 2.1, stake: 1250 },
  timeoutAt: null,
  createdAt: T,
} as JobRecord;

const settledTx = {
  id: 'B-77',
  type: 'bet',
  status: 'won',
  stake: 1250,
  pnl: 1375,
  odds: 2.1,
  session_id: SESSION_A,
  selections: [{ selection: 'Lakers', event: 'Lakers v Celtics' }],
} as unknown as Transaction;

const health = {
  sessionId: SESSION_B2,
  bookie: 'bookie_b',
  state: 'offline' as const,
  reasons: ['the session is inactive'],
  caps: [],
  largestAcceptedCents: 150_000,
  refusalRate7d: null,
  refusalRate30d: 0.1,
  lastBetAt: T,
};

/** Every view a member or treasurer is shown, outside the fund's (those are in the fund's own follow-up). */
const ALERT: AlertFacts = {
  alertId: 'a1b2c3d4',
  kind: 'moves',
  headline: 'Steam: 3 books shortened 21 % in 15 min',
  eventName: 'Lakers v Celtics',
  marketLabel: 'Head to head',
  selectionLabel: 'Lakers',
  bookie: 'bookie_a',
  before: 2.4,
  now: 2.1,
  fairOdds: 2.05,
  edge: 0.024,
  startsAt: T + 3_600_000,
  books: ['bookie_a 2.40 → 2.10', 'bookie_b 2.45 → 2.15'],
  userId: BEN,
  bettable: true,
};

const watch: Watch = {
  watchId: 'w-3f9a',
  guildId: 'g1',
  userId: BEN,
  scope: 'personal',
  delivery: 'channel',
  channelId: 'c1',
  epk: slip.epk,
  eventName: 'Lakers v Celtics',
  startsAt: T + 3_600_000,
  books: ['bookie_a', 'bookie_b'],
  market: 'h2h',
  selection: 'lakers',
  selectionLabel: 'Lakers',
  bookie: 'bookie_a',
  rule: { kind: 'price', target: 2.5, direction: 'above' },
  createdAt: T,
};

/** An events listing of one game (its day's or what is coming up). */
const listing = {
  events: [
    {
      event_id: slip.epk,
      sport: 'basketball',
      league: 'nba',
      name: 'Lakers v Celtics',
      start_time: '2026-11-28T01:00:00Z',
      status: 'prematch' as const,
      books: ['bookie_a', 'bookie_b'],
      score: null,
    },
  ],
  league: 'nba',
  page: 0,
  ref: 'abcdef123456',
};

const VIEWS: Record<string, () => MessageView> = {
  alert: () => alertView(ALERT),
  'alert by DM': () => alertView({ ...ALERT, dm: { guildId: 'g1', alertsChannelId: 'c9' } }),
  'alert at a book refusing the sport': () => alertView({ ...ALERT, bookRefusesSport: true }),
  'alert by DM at a book refusing the sport': () =>
    alertView({ ...ALERT, bookRefusesSport: true, dm: { guildId: 'g1', alertsChannelId: null } }),
  'alert at a book that takes no bet on it': () => alertView({ ...ALERT, bookie: 'bookie_b', bettable: false }),
  'folded alerts': () =>
    alertsFoldedView([
      { topic: 'Lakers v Celtics', n: 15 },
      { topic: 'Knicks v Nets', n: 1 },
    ]),
  'watch list': () => watchListView([{ watch, freshness: freshnessText(T - 90_000, T, watch.startsAt) }]),
  'watch list with alerts and a started event': () =>
    watchListView([
      { watch, freshness: 'read 40 s ago', alerted: alertedText({ count: 2, lastAt: T - 600_000 }, T) },
      { watch, freshness: '', alerted: alertedText(undefined, T), started: true },
    ]),
  sessions: () => sessionsView(sessions),
  balances: () =>
    balancesView([
      {
        session: sessions[0] as Session,
        balance: { bookie: 'bookie_a', balance: 12_345.5, bonus_balance: 25 } as never,
      },
      { session: sessions[2] as Session, error: 'the session is not active' },
    ]),
  jobs: () => jobsView([job]),
  settings: () =>
    settingsView(
      settings,
      { perBetCents: 10_000, perDayCents: 50_000 },
      { cents: 160_000, source: 'nav', asOf: new Date(T) },
      () => 'alpha_b (session …00b2, inactive)',
    ),
  slip: () => slipView({ slip, slipId: 'slip-1', userId: BEN, expiresAt: T + 120_000 }),
  submitted: () => submittedView(slip, 2.1, CORRELATION),
  closed: () =>
    closedSlipView(slip, 'Price moved', 'The price moved from 2.10 to 1.95.', {
      priceMoved: { slipId: 'slip-1', live: 1.95 },
    }),
  receipt: () => receiptView(slip, { success: true, bet_id: 'B-77', odds: 2.1, stake: 1250 }),
  refused: () =>
    receiptView(slip, { success: false, message: 'max_stake_exceeded: The maximum stake for this bet is $1,000.00.' }),
  'job lost': () => jobLostView(slip, 'timeout'),
  proposal: () =>
    proposalView({
      proposal,
      slip,
      approvals: [{ approverId: ADA, odds: 2.1, createdAt: T }],
      approverRoleId: undefined,
    }),
  reminder: () => reminderView(proposal, slip, undefined),
  'proposal closed': () => proposalClosedView(proposal, slip, 'Proposal expired', 'Nobody approved it in time.'),
  settlement: () =>
    settlementView({
      settlement: settlementOf(settledTx)!,
      userId: BEN,
      detail: { selectionLabel: 'Lakers', eventName: 'Lakers v Celtics' },
    }),
  'missing bet': () =>
    missingBetView({
      betId: 'B-77',
      userId: BEN,
      bookie: 'bookie_a',
      sessionId: SESSION_A,
      stakeCents: 125_000,
      createdAt: T,
      payload: { selectionLabel: 'Lakers', eventName: 'Lakers v Celtics' },
    }),
  accounts: () =>
    accountsView([
      { ...health, sessionId: SESSION_B, state: 'healthy', reasons: [], username: 'alpha_b' },
      { ...health, username: 'alpha_b' },
    ]),
  'account notice': () => accountStateNoticeView(health, 'healthy', 'alpha_b'),
  exposure: () =>
    exposureView(
      {
        event: undefined,
        totalOpenCents: 250_000,
        events: [{ label: 'Lakers v Celtics', cents: 125_000, capCents: 2_500_000 }],
        markets: [{ label: 'Head to head', cents: 125_000, capCents: undefined }],
        members: [{ label: `<@${BEN}>`, cents: 125_000, capCents: 150_000 }],
        accounts: [{ label: 'bookie_a · alpha_a', cents: 125_000, capCents: undefined }],
        syndicateDay: { label: 'syndicate', cents: 250_000, capCents: undefined },
      },
      '2026-11-27',
    ),
  leaderboard: () =>
    leaderboardView(
      {
        ranked: [
          {
            member: BEN,
            clv: { meanClv: 0.031, meanLogClv: 0.03, beatCloseRate: 0.6, withClose: 40 } as never,
            skill: skillOf(facts),
            profitCents: 160_000,
            multis: multiPart(withMultis),
          },
        ],
        tooFew: [],
        minBets: 20,
      },
      'all time',
    ),
  stats: () =>
    statsView({
      scope: `<@${BEN}> · all time`,
      report: report(withMultis),
      byBook: [],
      skill: skillOf(withMultis),
      chart: false,
      multis: multiPart(withMultis),
    }),
  card: () =>
    cardView({ card, eventName: 'Lakers v Celtics', ref: 'abcdef123456', page: 0, startTime: slip.startTime }),
  'card at a book that takes no bets on it': () =>
    cardView({
      card: { ...card, market_ref_betting_enabled: false },
      eventName: 'Lakers v Celtics',
      ref: 'abcdef123456',
      page: 0,
      startTime: slip.startTime,
    }),
  market: () => marketView({ card, eventName: 'Lakers v Celtics', ref: 'abcdef123456', marketIndex: 0 }),
  events: () => eventsView({ ...listing, date: '2026-11-28', timezone: 'UTC' }),
  eventsComingUp: () => eventsView({ ...listing, date: '2026-11-27', timezone: 'Australia/Sydney', from: T }),
};

/**
 * The one code a view may show, and why: an admin's /jobs lists the gateway's jobs by the kind the gateway and the
 * operators' guide name them (place_bet), to be matched against the gateway's own records.
 */
const CODES_SHOWN: Record<string, RegExp> = { jobs: /: a code, not words \(place_bet: / };

describe('what members and treasurers are shown', () => {
  it.each(Object.keys(VIEWS))(
    '%s: no session UUID, internal id, HTTP path, unformatted amount, typographic minus, code, JSON or raw time',
    (name) => {
      const view = VIEWS[name]?.();
      expect(view).toBeDefined();
      const allowed = CODES_SHOWN[name];
      expect(hygieneViolations(view as MessageView).filter((v) => !allowed?.test(v))).toEqual([]);
    },
  );

  it('the check itself flags each kind of leak, and a minus sign other than ASCII, and lets a support footer carry an id', () => {
    const view: MessageView = {
      content: 'Session 5e55a1fa-0000-4000-8000-00000000000a (POST /v3/balance) holds $1600.00 and $1.000000',
      embeds: [
        { description: 'cash-out fo-e0733556', footer: { text: 'For support: fs-1a2b3c4d' } },
        { description: 'balance $10.00 \u2212 bonus $2.00' },
        {
          description: 'starts 2026-11-29T00:30:00Z',
          fields: [{ name: 'Lakers v Kings · 11-29 00:30 UTC', value: '-' }],
        },
        { description: 'not_offered at bookie_c: run /fund withdrawal withdrawal_id: {"a":1}' },
      ],
      components: [],
    };
    expect(hygieneViolations(view)).toEqual([
      expect.stringMatching(/^content: a raw UUID/),
      expect.stringMatching(/^content: an HTTP path/),
      expect.stringMatching(/^content: an unformatted amount \$1600\.00/),
      expect.stringMatching(/^content: an unformatted amount \$1\.000000/),
      expect.stringMatching(/^embed 0 description: an internal record id/),
      expect.stringMatching(/^embed 1 description: a minus sign other than ASCII '-'/),
      expect.stringMatching(/^embed 2 description: a time not said by model\/dates\.ts/),
      expect.stringMatching(/^embed 2 field name: a time not said by model\/dates\.ts/),
      expect.stringMatching(/^embed 3 description: a code, not words \(not_offered: /),
      expect.stringMatching(/^embed 3 description: raw JSON/),
    ]);
  });
});
