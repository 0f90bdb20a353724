import type { BotStore, Tx } from '../store/index.js';

interface Pending {
  id: string;
  body: string;
  at: number;
  resolve: (first: boolean) => void;
  reject: (err: unknown) => void;
}

/** Largest batch written in one statement; more wait for the next one. */
const MAX_BATCH = 256;
/** Ids known to be on disk, answered "duplicate" without a query (replays come within seconds). */
const RECENT_IDS = 4_096;

// One statement per batch: atomic on its own, so it is safe on the connection keyv shares (no BEGIN).
const insertBatch = (store: BotStore) => `INSERT INTO webhook_deliveries (correlation_id, body, received_at)
  ${store.dialect.jsonArrayRows(['text', 'text', 'integer'])}
  ON CONFLICT (correlation_id) DO NOTHING RETURNING correlation_id`;

/**
 * Group commit for webhook deliveries: those arriving while a write is under way go to disk together in
 * the next single INSERT, and each caller learns "first or not" only once its row is durable. One
 * statement per batch instead of one per delivery is what lets the receiver keep up with the sender.
 */
export class DeliveryLog {
  private queue: Pending[] = [];
  private writing = false;
  private readonly inQueue = new Map<string, Promise<boolean>>();
  private readonly recent = new Set<string>();

  private readonly insertBatch: string;

  constructor(private readonly store: BotStore) {
    this.insertBatch = insertBatch(store);
  }

  /** True only for the first delivery of a correlation id, resolved after the row is persisted. */
  record(id: string, body: string, at: number): Promise<boolean> {
    if (this.recent.has(id)) return Promise.resolve(false);
    const earlier = this.inQueue.get(id);
    // The earlier copy wins; should its write fail, this one tries again on its own.
    if (earlier)
      return earlier.then(
        () => false,
        () => this.record(id, body, at),
      );
    const first = new Promise<boolean>((resolve, reject) => {
      this.queue.push({ id, body, at, resolve, reject });
    });
    this.inQueue.set(id, first);
    this.schedule();
    return first;
  }

  /**
   * One delivery written inside the caller's transaction (a receipt's, with its job and its bet's move): true when
   * it is the first of its correlation id. Call `remember` after the commit.
   */
  async recordInTx(tx: Pick<Tx, 'query'>, id: string, body: string, at: number): Promise<boolean> {
    if (this.recent.has(id)) return false;
    const rows = await tx.query(
      `INSERT INTO webhook_deliveries (correlation_id, body, received_at) VALUES (?, ?, ?)
       ON CONFLICT (correlation_id) DO NOTHING RETURNING correlation_id`,
      id,
      body,
      at,
    );
    return rows.length === 1;
  }

  private schedule(): void {
    // Idle: write at once. Busy: deliveries gather in the queue and go together when the write ends.
    if (this.writing || this.queue.length === 0) return;
    this.writing = true;
    void this.flush();
  }

  private async flush(): Promise<void> {
    const batch = this.queue.splice(0, MAX_BATCH);
    try {
      const rows = await this.store.query<{ correlation_id: string }>(
        this.insertBatch,
        JSON.stringify(batch.map((p) => [p.id, p.body, p.at])),
      );
      const inserted = new Set(rows.map((r) => r.correlation_id));
      for (const p of batch) {
        this.remember(p.id);
        this.inQueue.delete(p.id);
        p.resolve(inserted.has(p.id));
      }
    } catch (err) {
      for (const p of batch) {
        this.inQueue.delete(p.id);
        p.reject(err);
      }
    } finally {
      this.writing = false;
      this.schedule();
    }
  }

  /** A delivery known to be on disk: later copies are answered "duplicate" without a query. */
  remember(id: string): void {
    this.recent.add(id);
    if (this.recent.size > RECENT_IDS) {
      const oldest = this.recent.values().next().value;
      if (oldest !== undefined) this.recent.delete(oldest);
    }
  }
}
