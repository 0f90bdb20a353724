import type { BotStore } from '../store.js';
import { DeliveryLog } from './delivery-log.js';

/** First-wins records: webhook deliveries and posts made. INSERT ... ON CONFLICT DO NOTHING RETURNING. */
export class OnceRepo {
  private readonly deliveries: DeliveryLog;

  constructor(private readonly store: BotStore) {
    this.deliveries = new DeliveryLog(store);
  }

  /** True only for the first delivery of a correlation id; resolves once the delivery is on disk. */
  recordDelivery(correlationId: string, body: string, now: number): Promise<boolean> {
    return this.deliveries.record(correlationId, body, now);
  }

  /** True only for the first caller: that caller posts. */
  async claimPost(key: string, now: number): Promise<boolean> {
    const rows = await this.store.query(
      'INSERT INTO posts (post_key, posted_at) VALUES (?, ?) ON CONFLICT (post_key) DO NOTHING RETURNING post_key',
      key,
      now,
    );
    return rows.length === 1;
  }

  /** Gives a claimed post back after Discord refused it, so a later pass can post it. */
  async releasePost(key: string): Promise<void> {
    await this.store.query('DELETE FROM posts WHERE post_key = ?', key);
  }
}
