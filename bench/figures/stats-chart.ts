// Figure 9: what /stats spends turning 10,000 bets into its numbers and its PNG chart, and /leaderboard its
// ranking with every member's interval (no I/O, no Discord).

import { attribution } from '../../src/bot/analytics/attribution.js';
import { renderStatsChart } from '../../src/bot/analytics/chart.js';
import type { BetFact } from '../../src/bot/analytics/facts.js';
import { leaderboard } from '../../src/bot/analytics/leaderboard.js';
import { report } from '../../src/bot/analytics/report.js';
import { profitCurve } from '../../src/bot/analytics/series.js';
import { DEFAULT_SKILL_MIN_BETS } from '../../src/bot/analytics/skill.js';
import { leaderboardView } from '../../src/bot/analytics/views/stats.js';
import { tipstersView } from '../../src/bot/fund/views/tipsters.js';
import { type FigureResult, figure } from '../lib/figure.js';
import { median, percentile } from '../lib/stats.js';

const BETS = 10_000;
const RUNS = 15;
const WARMUP = 2;

/** A deterministic season of settled bets: prices around evens, a small edge, closes captured. */
export function seasonOfBets(n: number, members = 7): BetFact[] {
  let x = 12345;
  const rnd = () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648;
  };
  const start = Date.UTC(2026, 8, 1);
  return Array.from({ length: n }, (_, i) => {
    const odds = Math.round((1.5 + rnd() * 2) * 100) / 100;
    const close = Math.round(odds * (0.95 + rnd() * 0.08) * 100) / 100;
    const stakeCents = 1000 + Math.floor(rnd() * 9000);
    const won = rnd() < 1 / close;
    return {
      betId: `b${i}`,
      member: `m${i % members}`,
      book: `bookie_${'abc'[i % 3]}`,
      session: `s${i % 3}`,
      sport: 'soccer',
      placedAt: start + i * 60_000,
      settledAt: start + i * 60_000 + 7_200_000,
      stakeCents,
      oddsTaken: odds,
      status: won ? 'won' : 'lost',
      returnCents: won ? Math.round(stakeCents * odds) : 0,
      closeOdds: close,
      closeMarket: { prices: [close, Math.round((close / (close - 1)) * 0.95 * 100) / 100], complete: true },
    };
  });
}

const LEADERBOARD_MEMBERS = 50;

export async function statsChart(): Promise<FigureResult[]> {
  const facts = seasonOfBets(BETS);
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const t0 = performance.now();
    const r = report(facts);
    const png = renderStatsChart({ title: `Profit ${r.pnl.profitCents}`, points: profitCurve(facts) });
    const ms = performance.now() - t0;
    bytes = png.length;
    if (i >= WARMUP) times.push(ms);
  }
  const season = seasonOfBets(BETS, LEADERBOARD_MEMBERS);
  const boardTimes: number[] = [];
  let ranked = 0;
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const t0 = performance.now();
    const board = leaderboard(season, DEFAULT_SKILL_MIN_BETS);
    leaderboardView(board, 'bench');
    const ms = performance.now() - t0;
    ranked = board.ranked.length;
    if (i >= WARMUP) boardTimes.push(ms);
  }
  // /fund tipsters over the same season: two of its three books are the fund's accounts, the third's bets are outside.
  const accounts = [
    { bookie: 'bookie_a', username: 'alpha_a', since: 0 },
    { bookie: 'bookie_b', username: 'alpha_b', since: 0 },
  ];
  const users: Record<string, string> = { s0: 'alpha_a', s1: 'alpha_b', s2: 'alpha_c' };
  const bothTimes: number[] = [];
  let credited = 0;
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const t0 = performance.now();
    const a = attribution(season, { accounts, accountOfSession: (s) => users[s] });
    tipstersView(a, 'bench');
    leaderboardView(leaderboard(season, DEFAULT_SKILL_MIN_BETS), 'bench');
    const ms = performance.now() - t0;
    credited = a.fund.bets;
    if (i >= WARMUP) bothTimes.push(ms);
  }
  return [
    figure({
      name: '9 /fund tipsters and /leaderboard (10,000 bets, 50 members) p95',
      value: percentile(bothTimes, 95),
      unit: 'ms',
      baseline: null,
      target: { on: 'value', op: '<', limit: 500 },
      note: `attribution of every settled bet to its tipster (${credited} the fund's, the rest outside it) and its embed, then the leaderboard and its embed; median ${median(bothTimes).toFixed(1)} ms over ${RUNS} runs`,
    }),
    figure({
      name: '9 /leaderboard ranking (10,000 bets, 50 members) p95',
      value: percentile(boardTimes, 95),
      unit: 'ms',
      baseline: null,
      target: { on: 'value', op: '<', limit: 500 },
      note: `CLV summary, 95 % t-interval and verdict per member, ranked by the lower end, and the embed (${ranked} ranked); median ${median(boardTimes).toFixed(1)} ms over ${RUNS} runs`,
    }),
    figure({
      name: '9 /stats chart render (10,000 bets) p95',
      value: percentile(times, 95),
      unit: 'ms',
      baseline: null,
      target: { on: 'value', op: '<', limit: 500 },
      note: `report + profit curve + chart.js on @napi-rs/canvas to PNG (${bytes} bytes); median ${median(times).toFixed(1)} ms over ${RUNS} runs after ${WARMUP} warm-ups`,
    }),
  ];
}
