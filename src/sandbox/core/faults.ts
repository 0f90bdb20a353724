// Fault injection: off unless enabled. Decisions draw from a seeded generator so a run can be repeated.
import { isWholeCents } from './money.js';
import { createRng } from './rng.js';

export interface FaultConfig {
  /** Added latency in sandbox ms: `fixedMs` on every request, plus `spikeMs` with `spikeProbability`. */
  latency?: { fixedMs?: number; spikeProbability?: number; spikeMs?: number };
  /** Path → probability of answering 500/503 instead (e.g. `{ '/v3/markets': 0.3 }`); `'*'` matches every path. */
  errorRates?: Record<string, number>;
  /** Probability that a job never completes (it then times out at timeout_at). */
  stuckJobs?: number;
  /** Probability that a webhook delivery attempt counts as failed whatever the receiver answered. */
  webhookFailures?: number;
  /** Betting-specific faults, each scoped to a route and/or a session (docs/sandbox.md, "Faults"). */
  betting?: BettingFault[];
  /**
   * Cards show the rows of a sport their book takes no bets on as bettable, with market_refs (a gateway whose cards
   * run ahead of what the book takes); bets and price checks there are still refused `not_offered` (decision 1995).
   */
  unofferedCards?: boolean;
}

export const BETTING_FAULTS = [
  'price_moved',
  'max_stake',
  'restricted',
  'webhook_lost',
  'webhook_duplicated',
  'webhook_out_of_order',
  'late_202',
] as const;
export type BettingFaultKind = (typeof BETTING_FAULTS)[number];

export interface BettingFault {
  fault: BettingFaultKind;
  /** Only requests to this path (e.g. '/v3/place_bet'); absent: every path the fault applies to. */
  route?: string;
  /** Only jobs and bets of this session; absent: every session. */
  session_id?: string;
  /** Chance the fault strikes a matching request, drawn from the seeded generator; default 1. */
  probability?: number;
  /** price_moved: the live price at placement is multiplied by this (default 0.9: shorter, so below target_odds). */
  factor?: number;
  /** max_stake: the largest stake the bookmaker takes on the account, in dollars. */
  max_stake?: number;
  /** late_202: real milliseconds the 202 is held back (aimed at the client's own timeout); default 30000. */
  delay_ms?: number;
  /** webhook_out_of_order: longest sandbox ms a delivery waits for a later one to overtake it; default 30000. */
  hold_ms?: number;
}

export const DEFAULT_LATE_202_MS = 30_000;
export const DEFAULT_PRICE_MOVE = 0.9;
export const DEFAULT_HOLD_MS = 30_000;

/** What `--faults` / `faults: true` turns on: mild, so a client's retries and timeouts get exercised. */
export const DEFAULT_FAULTS: FaultConfig = {
  latency: { fixedMs: 20, spikeProbability: 0.05, spikeMs: 1500 },
  errorRates: { '*': 0.02, '/v3/markets': 0.1 },
  stuckJobs: 0.02,
  webhookFailures: 0.1,
};

function probability(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !(value >= 0 && value <= 1)) {
    throw new Error(`${name} must be a probability between 0 and 1, got ${JSON.stringify(value)}`);
  }
  return value;
}

// Bounds of the timed faults: long enough for any client timeout, short enough that a typo cannot wedge a run.
export const MAX_LATENCY_MS = 60_000;
export const MAX_DELAY_MS = 5 * 60_000;
export const MAX_HOLD_MS = 30 * 60_000;
const MAX_PRICE_FACTOR = 100;
const MAX_STAKE_DOLLARS = 1_000_000_000;

function milliseconds(value: unknown, name: string, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !(value >= 0 && value <= max)) {
    throw new Error(`${name} must be a number of ms between 0 and ${max}, got ${JSON.stringify(value)}`);
  }
  return value;
}

/** Checks a config from JSON (control route); throws an Error whose message names the bad field. */
export function parseFaultConfig(input: unknown): FaultConfig {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new Error('fault config must be a JSON object such as {"errorRates": {"/v3/markets": 0.3}}');
  }
  const raw = input as Record<string, unknown>;
  const known = new Set(['latency', 'errorRates', 'stuckJobs', 'webhookFailures', 'betting', 'unofferedCards']);
  for (const key of Object.keys(raw)) {
    if (!known.has(key)) throw new Error(`unknown fault setting '${key}'; use ${[...known].join(', ')}`);
  }
  const out: FaultConfig = {};
  if (raw.latency !== undefined) {
    const l = raw.latency as Record<string, unknown>;
    if (typeof l !== 'object' || l === null || Array.isArray(l))
      throw new Error('latency must be an object {fixedMs, spikeProbability, spikeMs}');
    out.latency = {};
    const fixedMs = milliseconds(l.fixedMs, 'latency.fixedMs', MAX_LATENCY_MS);
    const spikeMs = milliseconds(l.spikeMs, 'latency.spikeMs', MAX_LATENCY_MS);
    const spikeProbability = probability(l.spikeProbability, 'latency.spikeProbability');
    if (fixedMs !== undefined) out.latency.fixedMs = fixedMs;
    if (spikeMs !== undefined) out.latency.spikeMs = spikeMs;
    if (spikeProbability !== undefined) out.latency.spikeProbability = spikeProbability;
  }
  if (raw.errorRates !== undefined) {
    if (typeof raw.errorRates !== 'object' || raw.errorRates === null || Array.isArray(raw.errorRates)) {
      throw new Error('errorRates must be an object of path → probability');
    }
    out.errorRates = {};
    for (const [path, rate] of Object.entries(raw.errorRates)) {
      out.errorRates[path] = probability(rate, `errorRates['${path}']`)!;
    }
  }
  const stuck = probability(raw.stuckJobs, 'stuckJobs');
  if (stuck !== undefined) out.stuckJobs = stuck;
  const hook = probability(raw.webhookFailures, 'webhookFailures');
  if (hook !== undefined) out.webhookFailures = hook;
  if (raw.unofferedCards !== undefined) {
    if (typeof raw.unofferedCards !== 'boolean') throw new Error('unofferedCards must be true or false');
    if (raw.unofferedCards) out.unofferedCards = true;
  }
  if (raw.betting !== undefined) {
    if (!Array.isArray(raw.betting)) {
      throw new Error('betting must be an array of rules such as [{"fault": "late_202", "route": "/v3/place_bet"}]');
    }
    out.betting = raw.betting.map((rule, i) => parseBettingFault(rule, `betting[${i}]`));
  }
  return out;
}

const RULE_FIELDS = new Set([
  'fault',
  'route',
  'session_id',
  'probability',
  'factor',
  'max_stake',
  'delay_ms',
  'hold_ms',
]);

function positive(value: unknown, name: string, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !(value > 0 && value <= max)) {
    throw new Error(`${name} must be a positive number at most ${max}, got ${JSON.stringify(value)}`);
  }
  return value;
}

function parseBettingFault(input: unknown, name: string): BettingFault {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new Error(`${name} must be an object such as {"fault": "restricted", "session_id": "..."}`);
  }
  const raw = input as Record<string, unknown>;
  for (const key of Object.keys(raw)) {
    if (!RULE_FIELDS.has(key)) throw new Error(`${name}: unknown field '${key}'; use ${[...RULE_FIELDS].join(', ')}`);
  }
  if (typeof raw.fault !== 'string' || !(BETTING_FAULTS as readonly string[]).includes(raw.fault)) {
    throw new Error(`${name}.fault must be one of ${BETTING_FAULTS.join(', ')}`);
  }
  const rule: BettingFault = { fault: raw.fault as BettingFaultKind };
  for (const key of ['route', 'session_id'] as const) {
    const v = raw[key];
    if (v === undefined) continue;
    if (typeof v !== 'string' || v === '') throw new Error(`${name}.${key} must be a non-empty string`);
    rule[key] = v;
  }
  const p = probability(raw.probability, `${name}.probability`);
  if (p !== undefined) rule.probability = p;
  const factor = positive(raw.factor, `${name}.factor`, MAX_PRICE_FACTOR);
  if (factor !== undefined) rule.factor = factor;
  const maxStake = positive(raw.max_stake, `${name}.max_stake`, MAX_STAKE_DOLLARS);
  if (maxStake !== undefined && !isWholeCents(maxStake)) {
    throw new Error(`${name}.max_stake must be whole cents (at most 2 decimal places), got ${maxStake}`);
  }
  if (maxStake !== undefined) rule.max_stake = maxStake;
  if (rule.fault === 'max_stake' && maxStake === undefined) {
    throw new Error(
      `${name}: a max_stake fault needs max_stake (dollars), e.g. {"fault": "max_stake", "max_stake": 50}`,
    );
  }
  const delay = milliseconds(raw.delay_ms, `${name}.delay_ms`, MAX_DELAY_MS);
  if (delay !== undefined) rule.delay_ms = delay;
  const hold = milliseconds(raw.hold_ms, `${name}.hold_ms`, MAX_HOLD_MS);
  if (hold !== undefined) rule.hold_ms = hold;
  return rule;
}

export class FaultState {
  config: FaultConfig;
  private readonly rng: () => number;

  constructor(config: FaultConfig | boolean | undefined, seed: number) {
    this.config = config === true ? DEFAULT_FAULTS : config ? parseFaultConfig(config) : {};
    this.rng = createRng(seed ^ 0x5eed);
  }

  set(config: FaultConfig): void {
    this.config = config;
  }

  get enabled(): boolean {
    return Object.keys(this.config).length > 0;
  }

  /** Extra latency for one request, in sandbox ms. */
  latencyMs(): number {
    const l = this.config.latency;
    if (!l) return 0;
    const spike = l.spikeProbability && this.rng() < l.spikeProbability ? (l.spikeMs ?? 0) : 0;
    return (l.fixedMs ?? 0) + spike;
  }

  /** 500 or 503 when this request should fail, else undefined. */
  errorFor(path: string): 500 | 503 | undefined {
    const rates = this.config.errorRates;
    if (!rates) return undefined;
    const rate = rates[path] ?? rates['*'];
    if (!rate || this.rng() >= rate) return undefined;
    return this.rng() < 0.5 ? 500 : 503;
  }

  jobStuck(): boolean {
    return !!this.config.stuckJobs && this.rng() < this.config.stuckJobs;
  }

  webhookFails(): boolean {
    return !!this.config.webhookFailures && this.rng() < this.config.webhookFailures;
  }

  /**
   * The first betting rule of `kind` that matches the route and one of the sessions and strikes this time
   * (its probability drawn from the seeded generator), or undefined.
   */
  strike(kind: BettingFaultKind, path: string | undefined, sessionIds: readonly string[]): BettingFault | undefined {
    for (const rule of this.config.betting ?? []) {
      if (rule.fault !== kind) continue;
      if (rule.route !== undefined && rule.route !== path) continue;
      if (rule.session_id !== undefined && !sessionIds.includes(rule.session_id)) continue;
      const p = rule.probability ?? 1;
      if (p >= 1 || (p > 0 && this.rng() < p)) return rule;
    }
    return undefined;
  }
}
