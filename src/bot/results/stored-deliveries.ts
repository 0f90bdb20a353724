// Verified deliveries are stored before they are applied (the receiver answers 2xx only then). Two moments read
// them back: a job tracked after its delivery arrived, and a start-up after a stop between storing and applying.
import type { Logger } from '../config/logger.js';
import type { BotStore } from '../store/index.js';
import { parseDelivery, type WebhookDelivery } from './receiver.js';

/** The stored delivery for a job, parsed; undefined when none is stored or it cannot be read. */
export async function storedDelivery(store: BotStore, correlationId: string): Promise<WebhookDelivery | undefined> {
  const [row] = await store.query<{ body: string }>(
    'SELECT body FROM webhook_deliveries WHERE correlation_id = ?',
    correlationId,
  );
  const parsed = row ? parseDelivery(row.body) : undefined;
  return parsed?.ok ? parsed.body : undefined;
}

/**
 * Applies every stored delivery whose job is still pending. Each is replayed on its own: one that cannot be parsed
 * or applied is logged and never stops the start-up.
 */
export async function replayStoredDeliveries(
  store: BotStore,
  apply: (body: WebhookDelivery) => Promise<unknown>,
  logger: Logger,
): Promise<void> {
  const unhandled = await store.query<{ correlation_id: string; body: string }>(
    `SELECT d.correlation_id, d.body FROM webhook_deliveries d JOIN jobs j ON j.correlation_id = d.correlation_id
     WHERE j.state = 'pending'`,
  );
  for (const row of unhandled) {
    try {
      const parsed = parseDelivery(row.body);
      if (parsed.ok) await apply(parsed.body);
      else
        logger.warn('a stored delivery could not be replayed', {
          correlationId: row.correlation_id,
          why: parsed.reason,
        });
    } catch (err) {
      logger.warn('a stored delivery could not be replayed', { correlationId: row.correlation_id, err });
    }
  }
}
