// The bench figures in the order they run; each knows its name, unit and target so a failure still prints a row.
import { approveAck } from './figures/approve-ack.js';
import { captureRate } from './figures/capture-rate.js';
import { cardBurstBot } from './figures/card-burst-bot.js';
import { cardBurstClient } from './figures/card-burst-client.js';
import { clientOverhead } from './figures/client-overhead.js';
import { compareTime } from './figures/compare-time.js';
import { containerImage, IMAGE_READY_TARGET, IMAGE_SIZE_TARGET } from './figures/container-image.js';
import { fairPriceCard } from './figures/fair-price-card.js';
import { fundMeAck } from './figures/fund-me-ack.js';
import { fundStrike, STRIKE_ROWS } from './figures/fund-strike.js';
import { interactionAck } from './figures/interaction-ack.js';
import { ledgerAppend } from './figures/ledger-append.js';
import { memory } from './figures/memory.js';
import { pollCoalescing } from './figures/poll-coalescing.js';
import { resultLatency } from './figures/result-latency.js';
import { SCALE_ROWS, scaleOut } from './figures/scale-out.js';
import { MULTI_RACING_ROW, MULTI_ROW, STACK_ROW, slipEdgeTime } from './figures/slip-edge-time.js';
import { slowBodies } from './figures/slow-bodies.js';
import { START_TARGET, startUnchanged } from './figures/start-unchanged.js';
import { statsChart } from './figures/stats-chart.js';
import { storeConfirm } from './figures/store-confirm.js';
import { validationCost } from './figures/validation-cost.js';
import { watchSchedule } from './figures/watch-schedule.js';
import { webhookReceiver } from './figures/webhook-receiver.js';
import type { FigureResult, Target } from './lib/figure.js';

export interface FigureSpec {
  id: number;
  /** Rows this figure reports if it cannot run (name, unit, target of each). */
  rows: { name: string; unit: string; target: Target }[];
  run: () => Promise<FigureResult[]>;
}

export const FIGURES: FigureSpec[] = [
  {
    id: 1,
    rows: [
      {
        name: '1 client overhead (300-selection card)',
        unit: 'ms/card',
        target: { on: 'ratio', op: '<=', limit: 1.05 },
      },
      {
        name: '1 client vs fetch (300-selection card)',
        unit: 'ms/card',
        target: { on: 'ratio', op: '<=', limit: 0.85 },
      },
    ],
    run: clientOverhead,
  },
  {
    id: 2,
    rows: [
      { name: '2 validation cost (500-event page)', unit: 'ms/page', target: { on: 'ratio', op: '<=', limit: 0.3 } },
    ],
    run: validationCost,
  },
  {
    id: 3,
    rows: [
      {
        name: '3 poll coalescing (1,000 pending jobs)',
        unit: 'requests/tick',
        target: { on: 'ratio', op: '<=', limit: 0.01 },
      },
    ],
    run: pollCoalescing,
  },
  {
    id: 4,
    rows: [
      {
        name: '4 webhook receiver vs its honest floor',
        unit: 'deliveries/s',
        target: { on: 'ratio', op: '>=', limit: 0.8 },
      },
      {
        name: '4 webhook receiver vs bare node:http (information)',
        unit: 'deliveries/s',
        target: { on: 'ratio', op: '>=', limit: 0 },
      },
      { name: '4 webhook receiver p99 time to 2xx', unit: 'ms', target: { on: 'value', op: '<', limit: 10_000 } },
    ],
    run: webhookReceiver,
  },
  {
    id: 5,
    rows: [
      { name: '5 /markets ack p50 (200 concurrent)', unit: 'ms', target: { on: 'value', op: '<', limit: 3_000 } },
      { name: '5 /markets ack p99 (200 concurrent)', unit: 'ms', target: { on: 'ratio', op: '<=', limit: 1.1 } },
    ],
    run: interactionAck,
  },
  {
    id: 6,
    rows: [
      ...['webhook p50', 'webhook p99'].map((which) => ({
        name: `6 result latency ${which}`,
        unit: 'ms',
        target: { on: 'value', op: '<', limit: 10_000 } as const,
      })),
      {
        name: '6 result latency webhook p99 vs its floor',
        unit: 'ms',
        target: { on: 'ratio', op: '<=', limit: 1.5 } as const,
      },
      ...['poll p50', 'poll p99'].map((which) => ({
        name: `6 result latency ${which}`,
        unit: 'ms',
        target: { on: 'value', op: '<', limit: 10_000 } as const,
      })),
    ],
    run: resultLatency,
  },
  {
    id: 7,
    rows: [
      { name: '7 bot RSS after start', unit: 'MB', target: { on: 'value', op: '<', limit: 150 } },
      { name: '7 bot RSS after 1,000 interactions', unit: 'MB', target: { on: 'value', op: '<', limit: 150 } },
      { name: '7 bot RSS growth over 1,000 interactions', unit: 'MB', target: { on: 'value', op: '<', limit: 20 } },
    ],
    run: memory,
  },
  {
    id: 8,
    rows: [
      { name: '8 card burst: 429s shown to users (bot)', unit: 'replies', target: { on: 'value', op: '==', limit: 0 } },
      {
        name: '8 card burst: repeat reads sent upstream (bot cache)',
        unit: 'requests',
        target: { on: 'value', op: '==', limit: 0 },
      },
      { name: '8 card burst: 429s shown (client)', unit: 'errors', target: { on: 'value', op: '==', limit: 0 } },
    ],
    run: async () => [...(await cardBurstBot()), ...(await cardBurstClient())],
  },
  {
    id: 9,
    rows: [
      {
        name: '9 /leaderboard ranking (10,000 bets, 50 members) p95',
        unit: 'ms',
        target: { on: 'value', op: '<', limit: 500 },
      },
      {
        name: '9 /fund tipsters and /leaderboard (10,000 bets, 50 members) p95',
        unit: 'ms',
        target: { on: 'value', op: '<', limit: 500 },
      },
      { name: '9 /stats chart render (10,000 bets) p95', unit: 'ms', target: { on: 'value', op: '<', limit: 500 } },
    ],
    run: statsChart,
  },
  {
    id: 10,
    rows: [
      {
        name: '10 bot RSS growth under 1,000 slow-body connections',
        unit: 'MB',
        target: { on: 'value', op: '<', limit: 100 },
      },
      {
        name: '10 genuine delivery time to 2xx during them',
        unit: 'ms',
        target: { on: 'value', op: '<', limit: 10_000 },
      },
    ],
    run: slowBodies,
  },
  {
    id: 11,
    rows: [
      {
        name: '11 confirm-path store ops: PostgreSQL vs SQLite (1 process)',
        unit: 'confirms/s',
        target: { on: 'ratio', op: '>=', limit: 0.5 },
      },
      {
        name: '11 confirm-path store ops: PostgreSQL 2 processes vs 1 (information)',
        unit: 'confirms/s',
        target: { on: 'ratio', op: '>=', limit: 0 },
      },
      ...['SQLite', 'PostgreSQL, 1 process', 'PostgreSQL, 2 processes'].map((which) => ({
        name: `11 confirm → 202 stored p99 (${which})`,
        unit: 'ms',
        target: { on: 'value', op: '<', limit: 3_000 } as const,
      })),
    ],
    run: storeConfirm,
  },
  {
    id: 14,
    rows: [
      ...['SQLite', 'PostgreSQL'].map((engine) => ({
        name: `14 ledger append rate (${engine}, 8 callers)`,
        unit: 'entries/s',
        target: { on: 'value', op: '>=', limit: 200 } as const,
      })),
      ...['SQLite', 'PostgreSQL'].map((engine) => ({
        name: `14 ledger verify rate (${engine})`,
        unit: 'entries/s',
        target: { on: 'value', op: '>=', limit: 2_000 } as const,
      })),
    ],
    run: ledgerAppend,
  },
  {
    id: 12,
    rows: [
      { name: '12 /compare result time, three books, p95', unit: 'ms', target: { on: 'value', op: '<', limit: 2_000 } },
    ],
    run: compareTime,
  },
  {
    id: 13,
    rows: [
      {
        name: '13 closing capture rate (300-bet day, members reading cards)',
        unit: '%',
        target: { on: 'value', op: '>=', limit: 100 },
      },
      {
        name: '13 card-limit replies to members during capture',
        unit: 'replies',
        target: { on: 'value', op: '==', limit: 0 },
      },
    ],
    run: captureRate,
  },
  {
    id: 15,
    rows: [
      {
        name: '15 Approve ack p99 (100 concurrent approvals)',
        unit: 'ms',
        target: { on: 'value', op: '<', limit: 300 },
      },
    ],
    run: approveAck,
  },
  {
    id: 22,
    rows: SCALE_ROWS,
    run: scaleOut,
  },
  {
    id: 19,
    rows: (['multiplicative', 'shin'] as const).map((method) => ({
      name: `19 fair price and edge, 301-selection card at 3 books, p95 (${method})`,
      unit: 'ms',
      target: { on: 'value', op: '<', limit: 5 } as const,
    })),
    run: fairPriceCard,
  },
  {
    id: 20,
    rows: [
      {
        name: '20 slip time with the fair-price line vs without',
        unit: 'ms',
        target: { on: 'ratio', op: '<=', limit: 1.1 },
      },
      { name: MULTI_ROW, unit: 'ms', target: { on: 'ratio', op: '<=', limit: 1.2 } },
      { name: MULTI_RACING_ROW, unit: 'ms', target: { on: 'ratio', op: '<=', limit: 1.2 } },
      { name: STACK_ROW, unit: 'ms', target: { on: 'ratio', op: '<=', limit: 1.2 } },
    ],
    run: slipEdgeTime,
  },
  {
    id: 17,
    rows: STRIKE_ROWS,
    run: fundStrike,
  },
  {
    id: 18,
    rows: [{ name: '18 /fund me ack p99 (100 concurrent)', unit: 'ms', target: { on: 'value', op: '<', limit: 300 } }],
    run: fundMeAck,
  },
  {
    id: 25,
    rows: [{ name: '25 npm start to the address, nothing changed', unit: 'ms', target: START_TARGET }],
    run: startUnchanged,
  },
  {
    id: 26,
    rows: [
      { name: '26 container image size', unit: 'MB', target: IMAGE_SIZE_TARGET },
      { name: '26 container start to ready, warm store', unit: 'ms', target: IMAGE_READY_TARGET },
    ],
    run: containerImage,
  },
  {
    id: 27,
    rows: [
      {
        name: '27 watch alert latency p50 (500 cards, 120/min)',
        unit: 's',
        target: { on: 'ratio', op: '>=', limit: 0 },
      },
      { name: '27 watch alert latency p99 vs the floor', unit: 's', target: { on: 'ratio', op: '<=', limit: 1.5 } },
      {
        name: '27 watch coverage (changes read within one re-scrape)',
        unit: '%',
        target: { on: 'value', op: '>=', limit: 95 },
      },
      { name: '27 watch wasted reads vs round-robin', unit: 'reads', target: { on: 'ratio', op: '<=', limit: 0.5 } },
    ],
    run: watchSchedule,
  },
];
