import type { AsyncEnvelope, JobOutcome } from '../../gateway/index.js';
import type { Logger } from '../config/logger.js';
import type { GatewayPort } from '../gateway-port.js';
import type { DeskMetrics } from '../ops/metrics.js';
import { finalStatusOf, type OnceRepo, shapeProblem, type WebhookDelivery } from '../receiver/index.js';
import type { BotStore, ReceiptJournal, Tx } from '../store/index.js';
import type { JobRecord, JobRepo, NewJob } from './jobs-repo.js';

/** What to do with a job's outcome (edit the slip message, post a result); runs once per job. */
export type OutcomeHandler = (job: JobRecord, outcome: JobOutcome) => Promise<void>;

/**
 * A job's outcome applied inside the transaction that stores its webhook delivery and resolves the job: what it
 * records commits with them; what it returns runs after the commit (sends, chaining). Undefined: it cannot be
 * applied this way, and the whole transaction is undone (the delivery then takes the ordinary path).
 */
export type InTxHandler = (tx: Tx, job: JobRecord, outcome: JobOutcome) => Promise<(() => Promise<void>) | undefined>;

/**
 * A job's outcome drawn before its transaction (decision 2120): the edit its message will show, from the store's
 * committed rows (`read` waits for no transaction). `send` sends it at once (true once Discord took it; it is then
 * held until the transaction has run), `release` lets the message go when the outcome took another way.
 * Undefined: nothing to show ahead.
 */
export type AheadHandler = (
  job: { correlationId: string; context: unknown; shown?: unknown },
  outcome: JobOutcome,
  read: ReceiptJournal['read'],
) => Promise<{ send: () => Promise<boolean>; release: (restage: boolean) => void } | undefined>;

/** A delivery taken in one transaction: whether it was the first of its job, and what runs after the 2xx. */
export interface Taken {
  first: boolean;
  after?: () => Promise<void>;
}

class NotTaken extends Error {}

export interface ResultTrackerOptions {
  jobs: JobRepo;
  /** Where a delivery taken in one transaction is stored (see `take`); without it every delivery takes the long way. */
  store?: BotStore;
  once?: OnceRepo;
  gateway: GatewayPort;
  logger: Logger;
  now?: () => number;
  leaseRenewMs?: number;
  /**
   * A verified delivery the receiver already stored for this job, if any. A fast job's webhook can arrive
   * before its 202 is stored; it is kept but finds no job row, so tracking the job looks for it.
   */
  storedDelivery?: (correlationId: string) => Promise<WebhookDelivery | undefined>;
  /**
   * Whether an outcome the poller handed back may be applied. A delivery that came before its job row was given to
   * the poller unchecked (a price check waiting for it needs it): when the job is tracked, the poller answers with
   * it at once. False: it was the stored delivery, of the wrong shape for the job, and is quarantined.
   */
  accepts?: (correlationId: string, outcome: JobOutcome) => Promise<boolean>;
  /** Counts and times applied results (desk_job_results_total, desk_job_result_seconds). */
  metrics?: Pick<DeskMetrics, 'jobResults' | 'jobSeconds'>;
}

/**
 * Joins the two ways a result arrives (webhook, batched poller) on the store: the first to resolve the
 * job row wins, and only the winner runs the handler. Pending rows are re-tracked after a restart.
 */
export class ResultTracker {
  readonly #handlers = new Map<string, OutcomeHandler>();
  readonly #inTx = new Map<string, InTxHandler>();
  readonly #ahead = new Map<string, AheadHandler>();
  /** The kind of each job this process recorded or resumed and has not resolved: what `take` may apply at once. */
  readonly #kinds = new Map<string, string>();
  /** Their contexts: what a receipt shows ahead of its transaction is drawn from them. */
  readonly #contexts = new Map<string, unknown>();
  /** What each job's owner last committed for it to show (a bet's record once submitted, see `shows`). */
  readonly #shown = new Map<string, unknown>();
  readonly #inFlight = new Set<Promise<unknown>>();
  readonly #opts: ResultTrackerOptions;
  readonly #now: () => number;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(opts: ResultTrackerOptions) {
    this.#opts = opts;
    this.#now = opts.now ?? Date.now;
  }

  /**
   * `inTx`: the same outcome applied inside the transaction of its webhook delivery (see `take`); `ahead`: what it
   * shows, sent before that transaction where the store keeps receipts in a journal (decision 2120).
   */
  on(kind: string, handler: OutcomeHandler, inTx?: InTxHandler, ahead?: AheadHandler): void {
    this.#handlers.set(kind, handler);
    if (inTx) this.#inTx.set(kind, inTx);
    if (inTx && ahead) this.#ahead.set(kind, ahead);
  }

  /** Writes the 202 to the store; call before anything else is done with it. */
  async record<C>(job: NewJob<C>): Promise<void> {
    await this.#opts.jobs.insert(job, this.#now());
    this.#mine(job.correlationId, job.kind, job.context);
  }

  #mine(correlationId: string, kind: string, context: unknown): void {
    this.#kinds.set(correlationId, kind);
    this.#contexts.set(correlationId, context);
  }

  /**
   * What a job's receipt will be drawn from, as just committed (a bet's record once submitted): the receipt's edit is
   * then drawn without a read of the store (decision 2137). Only for a job this process holds; the transaction
   * still decides, and an edit drawn from a copy the store has moved past is put right by the outbox.
   */
  shows(correlationId: string, committed: unknown): void {
    if (this.#opts.store?.receipts && this.#contexts.has(correlationId)) this.#shown.set(correlationId, committed);
  }

  /** The job's record moved some other way: a copy `shows` gave is stale, so its receipt reads the store. */
  unshow(correlationId: string): void {
    this.#shown.delete(correlationId);
  }

  /** Jobs this process holds in memory (recorded or resumed here, not yet resolved): tests and diagnosis. */
  get holding(): number {
    return this.#contexts.size;
  }

  #forget(correlationId: string): void {
    this.#kinds.delete(correlationId);
    this.#contexts.delete(correlationId);
    this.#shown.delete(correlationId);
  }

  /**
   * A verified final delivery for a job this process recorded, applied in one transaction (decision 1990): the
   * delivery stored, the job resolved, and its kind's in-transaction handler (a bet's move and its slip's edit,
   * leased to this process); the receiver answers 2xx after the commit and runs `after` (the edit sent at once,
   * then the ledger's chaining and notices). Where the store keeps receipts in a journal (SQLite, decision 2120), the
   * delivery is kept there first and the edit sent at once, and the transaction runs in `after`. Undefined when the
   * delivery is not for such a job, is of the wrong shape for it, or the handler cannot apply it: the receiver then
   * stores it and hands it on as before.
   */
  async take(body: WebhookDelivery, raw: string): Promise<Taken | undefined> {
    const { store, once } = this.#opts;
    const id = body.correlation_id;
    const kind = this.#kinds.get(id);
    const inTx = kind === undefined ? undefined : this.#inTx.get(kind);
    const status = finalStatusOf(body);
    if (!store || !once || !inTx || status === undefined) return undefined;
    if (shapeProblem(kind, body) !== undefined) return undefined;
    const entry = { ...body, status };
    const outcome: JobOutcome = status === 'completed' ? { status, result: body.result, entry } : { status, entry };
    const ahead = kind === undefined ? undefined : this.#ahead.get(kind);
    if (store.receipts && ahead && this.#contexts.has(id)) {
      return this.#takeAhead(body, raw, outcome, { journal: store.receipts, ahead, inTx, once });
    }
    return this.#takeInTx(body, raw, outcome, inTx);
  }

  /**
   * The journal's way (decision 2120): the delivery kept in the journal while the edit is drawn from the committed
   * record, the edit sent at once, and (after the 2xx) the transaction beside it, the rest, and the journal let go. A stop
   * anywhere between leaves the delivery kept: the next start applies it (`replayReceiptJournal`).
   */
  async #takeAhead(
    body: WebhookDelivery,
    raw: string,
    outcome: JobOutcome,
    d: { journal: ReceiptJournal; ahead: AheadHandler; inTx: InTxHandler; once: OnceRepo },
  ): Promise<Taken> {
    const id = body.correlation_id;
    const context = this.#contexts.get(id);
    const [first, plan] = await Promise.all([
      d.journal.add(id, raw, this.#now()),
      d.ahead({ correlationId: id, context, shown: this.#shown.get(id) }, outcome, d.journal.read).catch((err) => {
        this.#opts.logger.warn('a receipt could not be drawn ahead; it goes with its transaction', {
          correlationId: id,
          err,
        });
        return undefined;
      }),
    ]);
    if (!first) return { first: false };
    const shown = plan ? plan.send() : Promise.resolve(false);
    // The transaction runs beside the edit: the store catches up while Discord shows the result.
    const apply = async () => {
      let failed = false;
      try {
        const taken = await this.#takeInTx(body, raw, outcome, d.inTx);
        if (taken) await taken.after?.();
        else if (await d.once.recordDelivery(id, raw, this.#now())) await this.fromWebhook(body);
        await d.journal.applied(id);
      } catch (err) {
        failed = true;
        // A stop closes the store under it: expected, and the next start applies it as well.
        const log = this.#stopped ? this.#opts.logger.info : this.#opts.logger.error;
        log.call(this.#opts.logger, 'a receipt kept in the journal was not applied; the next start applies it', {
          correlationId: id,
          err,
        });
      } finally {
        // The message is held until here: whatever was recorded for it goes out (or is marked shown) after.
        await shown;
        // Only a receipt whose outcome the store has (taken some other way) may put the message back on its record.
        plan?.release(!failed);
      }
    };
    return {
      first: true,
      after: () => {
        const p = apply();
        this.#keep(p);
        return p;
      },
    };
  }

  /** The delivery stored, the job resolved and the handler's part, in one transaction (see `take`). */
  async #takeInTx(
    body: WebhookDelivery,
    raw: string,
    outcome: JobOutcome,
    inTx: InTxHandler,
  ): Promise<Taken | undefined> {
    const { store, once } = this.#opts;
    if (!store || !once) return undefined;
    const id = body.correlation_id;
    const now = this.#now();
    let taken: { first: boolean; job?: JobRecord; after?: () => Promise<void> };
    try {
      taken = await store.transaction(
        async (tx) => {
          if (!(await once.recordDeliveryInTx(tx, id, raw, now))) return { first: false };
          // Resolved already (the poller's answer came first): the delivery is kept, nothing more to do.
          const job = await this.#opts.jobs.resolveInTx(tx, id, outcome, now, 'posted');
          if (!job) return { first: true };
          const after = await inTx(tx, job, outcome);
          if (!after) throw new NotTaken();
          return { first: true, job, after };
        },
        { urgent: true },
      );
    } catch (err) {
      if (err instanceof NotTaken) return undefined;
      throw err;
    }
    once.remember(id);
    this.#forget(id);
    if (!taken.first) return { first: false };
    // The library's poller stops polling it.
    try {
      this.#opts.gateway.jobs.resolveFromWebhook(body);
    } catch (err) {
      this.#opts.logger.warn('poller refused the webhook body', { err });
    }
    const { job, after } = taken;
    if (!job || !after) return { first: true };
    this.#opts.metrics?.jobResults.inc({ source: 'webhook', status: outcome.status });
    this.#opts.metrics?.jobSeconds.observe(Math.max(0, now - job.createdAt) / 1000, { source: 'webhook' });
    return {
      first: true,
      after: () => {
        const p = after().catch((err) =>
          this.#opts.logger.error('after posting a job result', { correlationId: id, err }),
        );
        this.#keep(p);
        return p;
      },
    };
  }

  /**
   * Starts waiting for the outcome. A fast result cannot be overwritten by the slip's "submitted": the bet's states
   * (a result's move leaves `sending`, and "submitted" then moves nothing) and the outbox's ranks keep the later stage.
   */
  track(envelope: AsyncEnvelope): void {
    const p = this.#opts.gateway.jobs
      .track(envelope)
      .then(async (outcome) => {
        // The poller's early answer was a quarantined delivery: poll the gateway for the real result instead.
        const accepted = (await this.#opts.accepts?.(envelope.correlation_id, outcome)) ?? true;
        const final = accepted ? outcome : await this.#opts.gateway.jobs.track(envelope);
        return this.resolve(envelope.correlation_id, final, 'poll');
      })
      .catch((err) => {
        // Its delivery, if it comes, takes the receiver's ordinary way (the job is still pending in the store).
        this.#forget(envelope.correlation_id);
        if (!this.#stopped)
          this.#opts.logger.warn('job tracking stopped', { correlationId: envelope.correlation_id, err });
      });
    this.#keep(p);
    const stored = this.#opts.storedDelivery;
    if (stored) {
      const early = stored(envelope.correlation_id)
        .then((body) => (body ? this.fromWebhook(body) : undefined))
        .catch((err) => {
          if (!this.#stopped)
            this.#opts.logger.warn('a delivery that came before its job could not be applied', {
              correlationId: envelope.correlation_id,
              err,
            });
        });
      this.#keep(early);
    }
  }

  /**
   * A verified webhook delivery: resolves the job and tells the library's poller to stop polling it. Counted among
   * the work idle() waits for, so a drain does not stop between a delivery and its result's edit.
   */
  fromWebhook(body: WebhookDelivery): Promise<void> {
    const p = this.#fromWebhook(body);
    this.#keep(p.catch(() => undefined));
    return p;
  }

  async #fromWebhook(body: WebhookDelivery): Promise<void> {
    // The receiver quarantines anything else; a stored delivery replayed at start is checked again here.
    const status = finalStatusOf(body);
    const entry = { ...body, status: status ?? 'completed' };
    const outcome: JobOutcome | undefined =
      status === undefined
        ? undefined
        : status === 'completed'
          ? { status, result: body.result, entry }
          : { status, entry };
    // Its job row may have been written since the receiver checked it: checked again for the job's kind. Without a
    // row it only goes to the poller (a price check may wait for it); the stored copy is checked when the job is
    // tracked, so a row written meanwhile cannot take it unchecked.
    const known = (await this.#opts.jobs.get(body.correlation_id)) !== undefined;
    if (known && outcome && !((await this.#opts.accepts?.(body.correlation_id, outcome)) ?? true)) return;
    try {
      this.#opts.gateway.jobs.resolveFromWebhook(body);
    } catch (err) {
      this.#opts.logger.warn('poller refused the webhook body', { err });
    }
    if (!outcome || !known) return;
    await this.resolve(body.correlation_id, outcome, 'webhook');
  }

  /** Records the outcome; the first caller for a job runs its handler. */
  async resolve(correlationId: string, outcome: JobOutcome, source: 'webhook' | 'poll' = 'poll'): Promise<boolean> {
    const job = await this.#opts.jobs.resolve(correlationId, outcome, this.#now());
    // Resolved here or already (another process took its webhook): either way nothing of it is applied here again.
    this.#forget(correlationId);
    if (!job) return false;
    this.#opts.metrics?.jobResults.inc({ source, status: outcome.status });
    this.#opts.metrics?.jobSeconds.observe(Math.max(0, this.#now() - job.createdAt) / 1000, { source });
    await this.#handle(job, outcome);
    return true;
  }

  async #handle(job: JobRecord, outcome: JobOutcome): Promise<void> {
    // 'posted' means the handler recorded what to show (in the outbox); the outbox delivers it.
    const handler = this.#handlers.get(job.kind);
    try {
      if (handler) await handler(job, outcome);
      await this.#opts.jobs.markPosted(job.correlationId, this.#now());
    } catch (err) {
      // Left 'resolved': the next resume() posts it again (an edit is idempotent).
      this.#opts.logger.error('posting a job result failed', { correlationId: job.correlationId, err });
    }
  }

  /** After a restart: re-track pending jobs (ours or with an expired lease) and post resolved-unposted ones. */
  async resume(): Promise<{ retracked: number; reposted: number }> {
    const pending = await this.#opts.jobs.takeOverPending(this.#now());
    for (const job of pending) {
      this.#mine(job.correlationId, job.kind, job.context);
      this.track(job.envelope as unknown as AsyncEnvelope);
    }
    const unposted = await this.#opts.jobs.unposted();
    for (const job of unposted) await this.#handle(job, job.outcome as JobOutcome);
    this.#timer = setInterval(
      () => void this.#opts.jobs.renewLeases(this.#now()).catch(() => undefined),
      this.#opts.leaseRenewMs ?? 20_000,
    );
    this.#timer.unref();
    return { retracked: pending.length, reposted: unposted.length };
  }

  /** Resolves when every handler started so far has finished (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
  }

  #keep(p: Promise<unknown>): void {
    this.#inFlight.add(p);
    void p.finally(() => this.#inFlight.delete(p));
  }
}
