import { createHash } from 'node:crypto';
import type { Logger } from '../config/logger.js';
import type { DiscordPoster } from '../discord/poster.js';
import type { MessageView } from '../model/limits.js';
import type { DeskMetrics } from '../ops/metrics.js';
import type { BotStore } from '../store/index.js';

/**
 * Every Discord write that reports money (submitted, receipt, refusal, settlement notice) goes through here:
 * recorded in the store first, sent by a worker, retried with backoff on 429/5xx/network errors, marked done
 * only once Discord accepted it, and resumed after a restart.
 *
 * Edits are keyed by the message they change and carry a rank (the stage of the bet they show): a later
 * stage replaces an earlier one still waiting, and an earlier stage never overwrites a later one. Creates
 * carry Discord's `nonce` with `enforce_nonce`, so a create resent after a crash (Discord accepted it, the
 * process died before marking it done) is not posted twice.
 */

const MAX_BACKOFF_MS = 60_000;
/** A refusal that is not about load (unknown message, missing access) is tried this many times. */
const MAX_HARD_FAILURES = 3;
const BATCH = 20;
/** Sends handed to Discord at once at most; discord.js queues them per route and keeps Discord's limits. */
const MAX_IN_FLIGHT = 50;
/** How long a pass owns the entries it took, unless `leaseMs` says otherwise (OUTBOX_LEASE_SECONDS). */
const LEASE_MS = 30_000;

interface OutboxRow extends Record<string, unknown> {
  outbox_key: string;
  kind: 'edit' | 'create';
  channel_id: string;
  message_id: string | null;
  body: string;
  rank: number;
  nonce: string | null;
  state: string;
  attempts: number;
  lease_until: number;
}

export interface OutboxOptions {
  store: BotStore;
  poster: DiscordPoster;
  logger: Logger;
  now: () => number;
  owner: string;
  /** How often due retries are looked for (new entries are sent at once). */
  intervalMs?: number;
  /** How long a pass owns the entries it took: a process that died mid-send has them sent again after this. */
  leaseMs?: number;
  /** Counts failed sends scheduled again (desk_outbox_retries_total). */
  metrics?: Pick<DeskMetrics, 'outboxRetries'>;
}

/** Discord's nonce: at most 25 characters, the same for the same outbox key. */
export function nonceOf(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 25);
}

function statusOf(err: unknown): number | undefined {
  const s = (err as { status?: unknown })?.status;
  return typeof s === 'number' ? s : undefined;
}

/** Load, limits and the network pass; other refusals (404 unknown message, 403) will not. */
function isTransient(err: unknown): boolean {
  const status = statusOf(err);
  return status === undefined || status === 429 || status >= 500;
}

export class Outbox {
  readonly #o: OutboxOptions;
  #timer: NodeJS.Timeout | undefined;
  #draining: Promise<void> | undefined;
  #again = false;
  #stopped = false;
  /** Sends handed to Discord and not finished; a pass takes new entries as soon as there is room. */
  readonly #sending = new Set<Promise<void>>();
  /** Sends ended so far: a pass that saw one end while it read the store reads again. */
  #finished = 0;
  /** Wakes a pass waiting on its sends when a new entry is recorded. */
  #wake: (() => void) | undefined;

  constructor(o: OutboxOptions) {
    this.#o = o;
  }

  /** Records an edit of a message; sent at once unless a later stage of it is already recorded. */
  async edit(channelId: string, messageId: string, view: MessageView, rank: number): Promise<void> {
    const now = this.#o.now();
    await this.#o.store.query(
      `INSERT INTO outbox (outbox_key, kind, channel_id, message_id, body, rank, nonce, state, attempts, next_at,
         created_at, updated_at)
       VALUES (?, 'edit', ?, ?, ?, ?, NULL, 'pending', 0, ?, ?, ?)
       ON CONFLICT (outbox_key) DO UPDATE SET body = excluded.body, rank = excluded.rank, state = 'pending',
         attempts = 0, next_at = excluded.next_at, updated_at = excluded.updated_at
       WHERE outbox.rank < excluded.rank`,
      `edit:${channelId}:${messageId}`,
      channelId,
      messageId,
      JSON.stringify(view),
      rank,
      now,
      now,
      now,
    );
    this.kick();
  }

  /** Records a new message under a key that makes it once-only (e.g. `settle:<bet id>`). */
  async create(key: string, channelId: string, view: MessageView): Promise<void> {
    const now = this.#o.now();
    await this.#o.store.query(
      `INSERT INTO outbox (outbox_key, kind, channel_id, message_id, body, rank, nonce, state, attempts, next_at,
         created_at, updated_at)
       VALUES (?, 'create', ?, NULL, ?, 0, ?, 'pending', 0, ?, ?, ?) ON CONFLICT (outbox_key) DO NOTHING`,
      `create:${key}`,
      channelId,
      JSON.stringify(view),
      nonceOf(key),
      now,
      now,
      now,
    );
    this.kick();
  }

  /**
   * The stages the outbox has not recorded yet: no edit of the message at that rank or a later one. Recording
   * any other stage again would change nothing (edit() keeps the highest), so a restart re-queues only these.
   */
  async unrecorded<T extends { channelId: string; messageId: string; rank: number }>(stages: T[]): Promise<T[]> {
    const keyOf = (s: T) => `edit:${s.channelId}:${s.messageId}`;
    const ranks = new Map<string, number>();
    // A few hundred keys per statement stays far inside either engine's parameter limit.
    for (let i = 0; i < stages.length; i += 500) {
      const keys = stages.slice(i, i + 500).map(keyOf);
      const rows = await this.#o.store.query<{ outbox_key: string; rank: number }>(
        `SELECT outbox_key, rank FROM outbox WHERE outbox_key IN (${keys.map(() => '?').join(', ')})`,
        ...keys,
      );
      for (const r of rows) ranks.set(r.outbox_key, Number(r.rank));
    }
    return stages.filter((s) => (ranks.get(keyOf(s)) ?? Number.NEGATIVE_INFINITY) < s.rank);
  }

  /** Whether an entry with this key exists (any state). */
  async has(key: string): Promise<boolean> {
    const rows = await this.#o.store.query('SELECT 1 AS one FROM outbox WHERE outbox_key = ?', key);
    return rows.length > 0;
  }

  async pendingCount(): Promise<number> {
    const rows = await this.#o.store.query<{ n: number }>("SELECT COUNT(*) AS n FROM outbox WHERE state = 'pending'");
    return Number(rows[0]?.n ?? 0);
  }

  start(): void {
    if (this.#timer || this.#stopped) return;
    this.#timer = setInterval(() => this.kick(), this.#o.intervalMs ?? 1_000);
    this.#timer.unref();
    this.kick();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#draining?.catch(() => undefined);
  }

  /** Sends what is due now; overlapping kicks fold into one more pass. */
  kick(): void {
    if (this.#stopped) return;
    if (this.#draining) {
      this.#again = true;
      this.#wake?.();
      return;
    }
    this.#draining = this.#drain()
      .catch((err) => this.#o.logger.warn('outbox pass failed; will retry', { err }))
      .finally(() => {
        this.#draining = undefined;
        if (this.#again && !this.#stopped) {
          this.#again = false;
          this.kick();
        }
      });
  }

  /** Resolves when nothing is due any more (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.#draining) await this.#draining;
  }

  /**
   * Takes due entries and hands each to Discord as soon as there is room, without waiting for the rest of its
   * batch: an entry recorded while others are being sent (a receipt behind a burst of "submitted" edits) goes
   * out at once rather than after the slowest of them. Ends when nothing is due and nothing is being sent.
   */
  async #drain(): Promise<void> {
    for (;;) {
      if (this.#stopped) break;
      // A kick while this pass reads the store sets it again: the pass then looks once more before waiting.
      this.#again = false;
      const finishedBefore = this.#finished;
      const room = MAX_IN_FLIGHT - this.#sending.size;
      const rows = room > 0 ? await this.#take(Math.min(room, BATCH)) : [];
      for (const row of rows) {
        const sent: Promise<void> = this.#send(row)
          .catch((err) => this.#o.logger.warn('outbox send failed; will retry', { key: row.outbox_key, err }))
          .finally(() => {
            this.#finished++;
            this.#sending.delete(sent);
          });
        this.#sending.add(sent);
      }
      if (rows.length > 0 && this.#sending.size < MAX_IN_FLIGHT) continue;
      // A send that ended while the store was read may have let a later stage go after the read: look again.
      if (this.#again || this.#finished !== finishedBefore) continue;
      if (this.#sending.size === 0) break;
      // Something is being sent: wait for one send to end (its lease may have held a later stage back) or for
      // a new entry to be recorded, then look again.
      const woken = new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
      await Promise.race([woken, ...this.#sending]);
      this.#wake = undefined;
    }
    await Promise.all(this.#sending);
  }

  /** Leases up to `limit` due entries, oldest first. */
  async #take(limit: number): Promise<OutboxRow[]> {
    const now = this.#o.now();
    return this.#o.store.query<OutboxRow>(
      `UPDATE outbox SET lease_until = ?, updated_at = ?
       WHERE outbox_key IN (SELECT outbox_key FROM outbox WHERE state = 'pending' AND next_at <= ?
         AND lease_until <= ? ORDER BY created_at LIMIT ${limit})
       RETURNING *`,
      now + (this.#o.leaseMs ?? LEASE_MS),
      now,
      now,
      now,
    );
  }

  async #send(row: OutboxRow): Promise<void> {
    const view = JSON.parse(row.body) as MessageView;
    try {
      if (row.kind === 'edit') {
        await this.#o.poster.edit(row.channel_id, row.message_id ?? '', view);
      } else {
        const id = await this.#o.poster.post(row.channel_id, view, row.nonce ?? undefined);
        await this.#o.store.query('UPDATE outbox SET message_id = ? WHERE outbox_key = ?', id, row.outbox_key);
      }
      // Done only for the stage that was sent: a later stage recorded meanwhile stays pending, and its lease
      // (this send's) is let go so the drain's next pass sends it now rather than when the lease runs out.
      await this.#o.store.query(
        `UPDATE outbox SET state = CASE WHEN rank = ? THEN 'done' ELSE state END, lease_until = 0, updated_at = ?
         WHERE outbox_key = ? AND state = 'pending' AND lease_until = ?`,
        row.rank,
        this.#o.now(),
        row.outbox_key,
        row.lease_until,
      );
    } catch (err) {
      const attempts = Number(row.attempts) + 1;
      const transient = isTransient(err);
      const give = !transient && attempts >= MAX_HARD_FAILURES;
      const retryAfterMs = (err as { retryAfterMs?: number }).retryAfterMs;
      const backoff = Math.min(MAX_BACKOFF_MS, retryAfterMs ?? 500 * 2 ** Math.min(attempts, 7));
      const message = String((err as Error)?.message ?? err).slice(0, 300);
      // The failed stage backs off; a later stage recorded while it was sent keeps its state and loses only
      // this send's lease, so the next pass sends it (one row per key: `rank` says which stage it holds).
      const failed = 'rank = ?';
      await this.#o.store.query(
        `UPDATE outbox SET state = CASE WHEN ${failed} THEN ? ELSE state END,
           attempts = CASE WHEN ${failed} THEN ? ELSE attempts END,
           next_at = CASE WHEN ${failed} THEN ? ELSE next_at END,
           last_error = CASE WHEN ${failed} THEN ? ELSE last_error END,
           lease_until = 0, updated_at = ?
         WHERE outbox_key = ? AND state = 'pending' AND (${failed} OR lease_until = ?)`,
        row.rank,
        give ? 'failed' : 'pending',
        row.rank,
        attempts,
        row.rank,
        this.#o.now() + backoff,
        row.rank,
        message,
        this.#o.now(),
        row.outbox_key,
        row.rank,
        row.lease_until,
      );
      this.#o.metrics?.outboxRetries.inc({ outcome: give ? 'gave_up' : 'retry' });
      const fields = { key: row.outbox_key, attempts, status: statusOf(err), err: message };
      if (give) this.#o.logger.error('Discord refused a money post; giving up on it', fields);
      else if (attempts === 1 || attempts % 10 === 0) this.#o.logger.warn('Discord write failed; will retry', fields);
    }
  }
}
