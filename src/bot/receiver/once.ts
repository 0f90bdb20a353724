import type { BotStore, Tx } from '../store/index.js';
import { DeliveryLog } from './delivery-log.js';

/** First-wins records: webhook deliveries. INSERT ... ON CONFLICT DO NOTHING RETURNING. */
export class OnceRepo {
  private readonly deliveries: DeliveryLog;

  constructor(store: BotStore) {
    this.deliveries = new DeliveryLog(store);
  }

  /** `recordDelivery` inside the caller's transaction; `remember` the id once it has committed. */
  recordDeliveryInTx(tx: Pick<Tx, 'query'>, correlationId: string, body: string, now: number): Promise<boolean> {
    return this.deliveries.recordInTx(tx, correlationId, body, now);
  }

  remember(correlationId: string): void {
    this.deliveries.remember(correlationId);
  }

  /** True only for the first delivery of a correlation id; resolves once the delivery is on disk. */
  recordDelivery(correlationId: string, body: string, now: number): Promise<boolean> {
    return this.deliveries.record(correlationId, body, now);
  }
}
