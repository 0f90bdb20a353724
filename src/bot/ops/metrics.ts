/**
 * The desk's metrics in Prometheus' text exposition format (version 0.0.4): counters, gauges and histograms with
 * fixed buckets, in one registry per process (decision 1760). Label values are command names, states, sources and
 * outcomes only: never a member id, a token or a key.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

type Labels = Record<string, string>;

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

function escapeValue(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function escapeHelp(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

function formatNumber(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Number.POSITIVE_INFINITY) return '+Inf';
  if (n === Number.NEGATIVE_INFINITY) return '-Inf';
  return String(n);
}

function labelText(names: readonly string[], values: readonly string[], extra?: [string, string]): string {
  const parts = names.map((n, i) => `${n}="${escapeValue(values[i] ?? '')}"`);
  if (extra) parts.push(`${extra[0]}="${escapeValue(extra[1])}"`);
  return parts.length === 0 ? '' : `{${parts.join(',')}}`;
}

abstract class Metric {
  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
    readonly type: 'counter' | 'gauge' | 'histogram',
  ) {
    if (!NAME.test(name)) throw new Error(`metric name ${name} is not a Prometheus name`);
    for (const l of labelNames)
      if (!LABEL.test(l) || l === 'le') throw new Error(`label ${l} of ${name} is not allowed`);
  }
  protected key(labels: Labels | undefined): string[] {
    const values = this.labelNames.map((n) => labels?.[n] ?? '');
    for (const k of Object.keys(labels ?? {})) {
      if (!this.labelNames.includes(k)) throw new Error(`metric ${this.name} has no label ${k}`);
    }
    return values;
  }
  abstract lines(): string[];
  text(): string {
    return [`# HELP ${this.name} ${escapeHelp(this.help)}`, `# TYPE ${this.name} ${this.type}`, ...this.lines()].join(
      '\n',
    );
  }
}

export class Counter extends Metric {
  readonly #values = new Map<string, { labels: string[]; value: number }>();
  constructor(name: string, help: string, labelNames: readonly string[] = []) {
    super(name, help, labelNames, 'counter');
  }
  inc(labels?: Labels, by = 1): void {
    if (!(by >= 0)) throw new Error(`counter ${this.name} can only go up (got ${by})`);
    const values = this.key(labels);
    const k = values.join('\u0000');
    const cell = this.#values.get(k);
    if (cell) cell.value += by;
    else this.#values.set(k, { labels: values, value: by });
  }
  /** The value for these labels (0 when never counted). */
  get(labels?: Labels): number {
    return this.#values.get(this.key(labels).join('\u0000'))?.value ?? 0;
  }
  lines(): string[] {
    if (this.labelNames.length === 0 && this.#values.size === 0) return [`${this.name} 0`];
    return [...this.#values.values()].map(
      (c) => `${this.name}${labelText(this.labelNames, c.labels)} ${formatNumber(c.value)}`,
    );
  }
}

export class Gauge extends Metric {
  readonly #values = new Map<string, { labels: string[]; value: number }>();
  constructor(name: string, help: string, labelNames: readonly string[] = []) {
    super(name, help, labelNames, 'gauge');
  }
  set(value: number, labels?: Labels): void {
    const values = this.key(labels);
    this.#values.set(values.join('\u0000'), { labels: values, value });
  }
  lines(): string[] {
    return [...this.#values.values()].map(
      (c) => `${this.name}${labelText(this.labelNames, c.labels)} ${formatNumber(c.value)}`,
    );
  }
}

export class Histogram extends Metric {
  readonly #cells = new Map<string, { labels: string[]; counts: number[]; sum: number; count: number }>();
  constructor(
    name: string,
    help: string,
    readonly buckets: readonly number[],
    labelNames: readonly string[] = [],
  ) {
    super(name, help, labelNames, 'histogram');
    for (let i = 1; i < buckets.length; i++) {
      if (!((buckets[i] as number) > (buckets[i - 1] as number))) throw new Error(`buckets of ${name} must rise`);
    }
  }
  observe(value: number, labels?: Labels): void {
    const values = this.key(labels);
    const k = values.join('\u0000');
    let cell = this.#cells.get(k);
    if (!cell) {
      cell = { labels: values, counts: this.buckets.map(() => 0), sum: 0, count: 0 };
      this.#cells.set(k, cell);
    }
    for (let i = 0; i < this.buckets.length; i++) if (value <= (this.buckets[i] as number)) cell.counts[i]! += 1;
    cell.sum += value;
    cell.count += 1;
  }
  /** Observations so far, over every label set. */
  count(): number {
    let n = 0;
    for (const c of this.#cells.values()) n += c.count;
    return n;
  }
  /** Starts a timer; the function it returns observes the seconds since. */
  time(labels?: Labels): () => void {
    const t0 = process.hrtime.bigint();
    return () => this.observe(Number(process.hrtime.bigint() - t0) / 1e9, labels);
  }
  lines(): string[] {
    const out: string[] = [];
    for (const c of this.#cells.values()) {
      this.buckets.forEach((b, i) => {
        out.push(`${this.name}_bucket${labelText(this.labelNames, c.labels, ['le', formatNumber(b)])} ${c.counts[i]}`);
      });
      out.push(`${this.name}_bucket${labelText(this.labelNames, c.labels, ['le', '+Inf'])} ${c.count}`);
      out.push(`${this.name}_sum${labelText(this.labelNames, c.labels)} ${formatNumber(c.sum)}`);
      out.push(`${this.name}_count${labelText(this.labelNames, c.labels)} ${c.count}`);
    }
    return out;
  }
}

/** A set of metrics and the collectors that refresh gauges just before each scrape. */
export class Registry {
  readonly #metrics = new Map<string, Metric>();
  readonly #collectors = new Set<() => Promise<void> | void>();

  register<M extends Metric>(m: M): M {
    if (this.#metrics.has(m.name)) throw new Error(`metric ${m.name} is registered twice`);
    this.#metrics.set(m.name, m);
    return m;
  }
  /** Runs before each scrape (e.g. reads the outbox backlog); returns a function that removes it. */
  collect(fn: () => Promise<void> | void): () => void {
    this.#collectors.add(fn);
    return () => this.#collectors.delete(fn);
  }
  /** The exposition text; a collector that fails leaves its gauges as they were. */
  async text(): Promise<string> {
    await Promise.allSettled([...this.#collectors].map(async (c) => c()));
    return `${[...this.#metrics.values()].map((m) => m.text()).join('\n')}\n`;
  }
}

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const STATEMENT_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];
const JOB_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

/**
 * The desk's series: one set per bot, made where the bot is composed (src/bot/index.ts) and handed to each part that
 * records (the store, the router, the outbox, the tracker, the catalog, the watch scheduler); `stop` ends the
 * event-loop monitor. `watchLoop: false` (no /metrics route: METRICS off) leaves the event loop unwatched: its
 * native histogram (0.35 MB) and 10 ms timer would be held for a scrape that never comes.
 */
export function deskMetrics(registry = new Registry(), opts: { watchLoop?: boolean } = {}) {
  const r = registry;
  const m = {
    registry: r,
    interactions: r.register(
      new Counter('desk_interactions_total', 'Interactions handled, by kind, command or control, and outcome.', [
        'kind',
        'name',
        'outcome',
      ]),
    ),
    ackSeconds: r.register(
      new Histogram(
        'desk_interaction_ack_seconds',
        'Seconds from an interaction reaching the desk to its acknowledgement (reply, defer or update) being sent.',
        LATENCY_BUCKETS,
      ),
    ),
    betTransitions: r.register(
      new Counter('desk_bet_transitions_total', 'Bet record moves of the transition table, by move and states.', [
        'move',
        'from',
        'to',
      ]),
    ),
    jobResults: r.register(
      new Counter('desk_job_results_total', 'Gateway job results applied, by how they arrived and final status.', [
        'source',
        'status',
      ]),
    ),
    jobSeconds: r.register(
      new Histogram(
        'desk_job_result_seconds',
        'Seconds from a job being stored (its 202) to its result being applied, by how the result arrived.',
        JOB_BUCKETS,
        ['source'],
      ),
    ),
    outboxPending: r.register(new Gauge('desk_outbox_pending', 'Discord writes waiting in the outbox.')),
    outboxRetries: r.register(
      new Counter('desk_outbox_retries_total', 'Discord writes of the outbox that failed and were scheduled again.', [
        'outcome',
      ]),
    ),
    cardQueue: r.register(new Gauge('desk_card_reads_queued', 'Market card reads waiting for the card limit.')),
    cardRefusals: r.register(
      new Counter('desk_card_reads_refused_total', 'Market card reads refused by the card limit (nothing sent).'),
    ),
    cardReads: r.register(
      new Counter('desk_card_reads_total', 'Market card reads sent to the gateway, by purpose.', ['purpose']),
    ),
    watchReadsSaved: r.register(
      new Counter(
        'desk_watch_reads_saved_total',
        'Watched card reads a round-robin at the fallback interval would have made that the cadence model skipped.',
      ),
    ),
    watchAlerts: r.register(
      new Counter('desk_watch_alerts_total', 'Watch alerts recorded in the outbox, by kind of watch.', ['kind']),
    ),
    watchAlertSeconds: r.register(
      new Histogram(
        'desk_watch_alert_seconds',
        'Seconds from the earliest moment a watched card could have changed (its read before) to its alert being recorded.',
        JOB_BUCKETS,
      ),
    ),
    reconciliationMismatches: r.register(
      new Counter('desk_reconciliation_mismatches_total', 'Daily reconciliation findings, by kind.', ['kind']),
    ),
    statementSeconds: r.register(
      new Histogram('desk_store_statement_seconds', 'Seconds per store call, by engine and kind.', STATEMENT_BUCKETS, [
        'engine',
        'kind',
      ]),
    ),
    draining: r.register(new Gauge('desk_draining', '1 while the process drains after SIGTERM, else 0.')),
    eventLoopDelay: r.register(
      new Gauge('nodejs_eventloop_delay_seconds', 'Event-loop delay since the previous scrape, by quantile.', [
        'quantile',
      ]),
    ),
    cpuSeconds: r.register(new Counter('process_cpu_seconds_total', 'CPU seconds used by this process.')),
    residentBytes: r.register(new Gauge('process_resident_memory_bytes', 'Resident memory of this process.')),
    heapBytes: r.register(new Gauge('nodejs_heap_used_bytes', 'V8 heap in use.')),
    startTime: r.register(new Gauge('process_start_time_seconds', 'Unix time this process started.')),
  };
  const loop = opts.watchLoop === false ? undefined : watchEventLoop(m.eventLoopDelay);
  let cpuSeen = 0;
  m.startTime.set(Math.round(Date.now() / 1000 - process.uptime()));
  r.collect(() => {
    const usage = process.cpuUsage();
    const cpu = (usage.user + usage.system) / 1e6;
    m.cpuSeconds.inc(undefined, Math.max(0, cpu - cpuSeen));
    cpuSeen = Math.max(cpuSeen, cpu);
    const mem = process.memoryUsage();
    m.residentBytes.set(mem.rss);
    m.heapBytes.set(mem.heapUsed);
    loop?.read();
  });
  return {
    ...m,
    stop: () => {
      loop?.stop();
    },
  };
}

/** Sets the gauge's quantiles of the event-loop delay since the previous read (nanoseconds to seconds). */
function watchEventLoop(gauge: Gauge): { read: () => void; stop: () => void } {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const read = () => {
    for (const [q, v] of [
      ['0.5', loop.percentile(50)],
      ['0.99', loop.percentile(99)],
      ['1', loop.max],
    ] as const) {
      gauge.set(Number.isFinite(v) && loop.count > 0 ? v / 1e9 : 0, { quantile: q });
    }
    loop.reset();
  };
  return { read, stop: () => loop.disable() };
}

export type DeskMetrics = ReturnType<typeof deskMetrics>;

/** What the scrape-time gauges read: the outbox's backlog and the card limiter's queue and refusals. */
export interface Backlogs {
  outboxPending: () => Promise<number>;
  cardLimiter: { readonly queued: number; readonly refused: number };
}

/** Refreshes the backlog gauges before each scrape; returns the function that stops it. */
export function collectBacklogs(m: DeskMetrics, b: Backlogs): () => void {
  return m.registry.collect(async () => {
    m.outboxPending.set(await b.outboxPending());
    m.cardQueue.set(b.cardLimiter.queued);
    const refused = b.cardLimiter.refused - m.cardRefusals.get();
    if (refused > 0) m.cardRefusals.inc(undefined, refused);
  });
}
