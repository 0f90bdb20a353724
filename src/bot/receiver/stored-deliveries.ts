// Verified deliveries are stored before they are applied (the receiver answers 2xx only then). Two moments read
// them back: a job tracked after its delivery arrived, and a start-up after a stop between storing and applying.
import type { JobOutcome } from '../../gateway/index.js';
import type { Logger } from '../config/logger.js';
import { JOB_STATES, sqlStates } from '../model/job-states.js';
import type { BotStore } from '../store/index.js';
import type { OnceRepo } from './once.js';
import { digestOf, parseDelivery, shapeProblem, type WebhookDelivery } from './receiver.js';

/** Keeps a signed delivery that must not be applied, for a person; true the first time these bytes are kept. */
export async function quarantineDelivery(
  store: BotStore,
  delivery: { body: WebhookDelivery; raw: string; reason: string; now: number },
): Promise<boolean> {
  const rows = await store.query(
    `INSERT INTO quarantined_deliveries (digest, correlation_id, reason, body, received_at)
     VALUES (?, ?, ?, ?, ?) ON CONFLICT (digest) DO NOTHING RETURNING digest`,
    digestOf(delivery.raw),
    delivery.body.correlation_id,
    delivery.reason,
    delivery.raw,
    delivery.now,
  );
  return rows.length === 1;
}

/**
 * A stored delivery checked against its job's kind, now that the job row exists (it may have arrived before it):
 * the body when it may be applied, undefined when it was quarantined instead.
 */
async function checkedAgainstJob(
  store: BotStore,
  raw: string,
  body: WebhookDelivery,
  logger: Logger,
  now: number,
): Promise<WebhookDelivery | undefined> {
  const [job] = await store.query<{ kind: string }>(
    'SELECT kind FROM jobs WHERE correlation_id = ?',
    body.correlation_id,
  );
  const problem = shapeProblem(job?.kind, body);
  if (problem === undefined) return body;
  if (await quarantineDelivery(store, { body, raw, reason: problem, now })) {
    logger.warn('webhook quarantined: wrong shape for its job', { correlationId: body.correlation_id, problem });
  }
  return undefined;
}

/**
 * Whether an outcome may be applied to its job: false when it is the result of the stored delivery and that
 * delivery is of the wrong shape for the job (it is quarantined then).
 */
export async function outcomeAccepted(
  store: BotStore,
  outcome: JobOutcome,
  correlationId: string,
  logger: Logger,
  now: number,
): Promise<boolean> {
  if (outcome.status !== 'completed') return true;
  const [row] = await store.query<{ body: string }>(
    'SELECT body FROM webhook_deliveries WHERE correlation_id = ?',
    correlationId,
  );
  const parsed = row ? parseDelivery(row.body) : undefined;
  if (!row || !parsed?.ok || JSON.stringify(parsed.body.result) !== JSON.stringify(outcome.result)) return true;
  return (await checkedAgainstJob(store, row.body, parsed.body, logger, now)) !== undefined;
}

/** The stored delivery for a job, parsed and checked for its kind; undefined when none may be applied. */
export async function storedDelivery(
  store: BotStore,
  correlationId: string,
  logger: Logger,
  now: number,
): Promise<WebhookDelivery | undefined> {
  const [row] = await store.query<{ body: string }>(
    'SELECT body FROM webhook_deliveries WHERE correlation_id = ?',
    correlationId,
  );
  const parsed = row ? parseDelivery(row.body) : undefined;
  return row && parsed?.ok ? checkedAgainstJob(store, row.body, parsed.body, logger, now) : undefined;
}

/**
 * Receipts a stop left in the store's journal (decision 2120): each stored as any delivery is (once; a copy the
 * transaction stored already changes nothing), then let go, so `replayStoredDeliveries` applies it.
 */
export async function replayReceiptJournal(store: BotStore, once: OnceRepo, logger: Logger): Promise<void> {
  const journal = store.receipts;
  if (!journal) return;
  for (const kept of await journal.pending()) {
    try {
      await once.recordDelivery(kept.correlationId, kept.raw, kept.receivedAt);
      await journal.applied(kept.correlationId);
    } catch (err) {
      logger.warn('a receipt in the journal could not be stored', { correlationId: kept.correlationId, err });
    }
  }
}

/**
 * Applies every stored delivery whose job is still pending. Each is replayed on its own: one that cannot be parsed
 * or applied is logged and never stops the start-up.
 */
export async function replayStoredDeliveries(
  store: BotStore,
  apply: (body: WebhookDelivery) => Promise<unknown>,
  logger: Logger,
  now: number,
): Promise<void> {
  const unhandled = await store.query<{ correlation_id: string; body: string }>(
    `SELECT d.correlation_id, d.body FROM webhook_deliveries d JOIN jobs j ON j.correlation_id = d.correlation_id
     WHERE j.state IN ${sqlStates(JOB_STATES.pending)}`,
  );
  for (const row of unhandled) {
    try {
      const parsed = parseDelivery(row.body);
      const body = parsed.ok ? await checkedAgainstJob(store, row.body, parsed.body, logger, now) : undefined;
      if (body) await apply(body);
      else if (!parsed.ok)
        logger.warn('a stored delivery could not be replayed', {
          correlationId: row.correlation_id,
          why: parsed.reason,
        });
    } catch (err) {
      logger.warn('a stored delivery could not be replayed', { correlationId: row.correlation_id, err });
    }
  }
}
