// Fault injection: off unless enabled. Decisions draw from a seeded generator so a run can be repeated.
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
}

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

function nonNegative(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !(value >= 0)) throw new Error(`${name} must be a number >= 0 ms`);
  return value;
}

/** Checks a config from JSON (control route); throws an Error whose message names the bad field. */
export function parseFaultConfig(input: unknown): FaultConfig {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new Error('fault config must be a JSON object such as {"errorRates": {"/v3/markets": 0.3}}');
  }
  const raw = input as Record<string, unknown>;
  const known = new Set(['latency', 'errorRates', 'stuckJobs', 'webhookFailures']);
  for (const key of Object.keys(raw)) {
    if (!known.has(key)) throw new Error(`unknown fault setting '${key}'; use ${[...known].join(', ')}`);
  }
  const out: FaultConfig = {};
  if (raw.latency !== undefined) {
    const l = raw.latency as Record<string, unknown>;
    if (typeof l !== 'object' || l === null)
      throw new Error('latency must be an object {fixedMs, spikeProbability, spikeMs}');
    out.latency = {};
    const fixedMs = nonNegative(l.fixedMs, 'latency.fixedMs');
    const spikeMs = nonNegative(l.spikeMs, 'latency.spikeMs');
    const spikeProbability = probability(l.spikeProbability, 'latency.spikeProbability');
    if (fixedMs !== undefined) out.latency.fixedMs = fixedMs;
    if (spikeMs !== undefined) out.latency.spikeMs = spikeMs;
    if (spikeProbability !== undefined) out.latency.spikeProbability = spikeProbability;
  }
  if (raw.errorRates !== undefined) {
    if (typeof raw.errorRates !== 'object' || raw.errorRates === null) {
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
  return out;
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
}
