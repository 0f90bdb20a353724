import { randomUUID } from 'node:crypto';
import type { Logger } from '../config/logger.js';
import type { DiscordPoster } from '../discord/poster.js';
import type { MessageView } from '../model/limits.js';
import type { DeskMetrics } from '../ops/metrics.js';
import type { BotStore, Tx } from '../store/index.js';
import { isOpen, OUTBOX_MOVES, OUTBOX_SQL } from './model/outbox-states.js';
import { ALERT_SPACING_MS, foldBursts, type Lane, nonceOf } from './outbox-lanes.js';

const { restaged: RESTAGED, recorded: RECORDED, sent: SENT, open: OPEN } = OUTBOX_SQL;

export { nonceOf };

/**
 * Every Discord write that reports money (submitted, receipt, refusal, settlement notice) goes through here:
 * recorded in the store first, sent by a worker, retried with backoff on 429/5xx/network errors, marked done
 * only once Discord accepted it, and resumed after a restart.
 *
 * Edits are keyed by the message they change and carry a rank (the stage of the bet they show): a later
 * stage replaces an earlier one still waiting, and an earlier stage never overwrites a later one. Creates
 * carry Discord's `nonce` with `enforce_nonce`, so a create resent after a crash (Discord accepted it, the
 * process died before marking it done) is not posted twice.
 *
 * Lanes and leases (decision 1960): a channel has at most one create in flight in a process (discord.js then never
 * holds a queue of ours behind the channel's limit), a pass renews the leases of the sends it has in flight, and a send's answer
 * marks its stage done whoever holds the lease now. Watch alerts ride a lane of their own, after the money posts,
 * paced and capped per channel (outbox-lanes.ts). A create's nonce is trusted for NONCE_TRUST_MS after it first
 * went out; a create still unsure after that is looked for in the channel, then sent under a new nonce.
 */

const MAX_BACKOFF_MS = 60_000;
/** A refusal that is not about load (unknown message, missing access) is tried this many times. */
const MAX_HARD_FAILURES = 3;
const BATCH = 20;
/** Sends handed to Discord at once at most; discord.js queues them per route and keeps Discord's limits. */
const MAX_IN_FLIGHT = 50;
/** How long a pass owns the entries it took, unless `leaseMs` says otherwise (OUTBOX_LEASE_SECONDS). */
const LEASE_MS = 30_000;
/**
 * How long after a create's nonce first went out a resend with it is trusted not to post twice: inside Discord's
 * "past few minutes" (the local Discord keeps two).
 */
export const NONCE_TRUST_MS = 90_000;
/** How long an edit sent ahead (decision 2120) that no record matched is remembered. */
const AHEAD_KEPT_MS = 5 * 60_000;
/** Due rows read per pass before the lanes choose among them. */
const CANDIDATES = 500;

export interface OutboxRow extends Record<string, unknown> {
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
  lane: Lane;
  sent_at: number | null;
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
  /**
   * The one post a burst of alerts folds into, counted by topic (the watch wing words it; the composition hands it
   * in). Absent: a plain count.
   */
  foldedView?: (counts: readonly { topic: string; n: number }[]) => MessageView;
  /** How far apart a channel's alert-lane posts go in this process (default ALERT_SPACING_MS; tests: 0). */
  alertSpacingMs?: number;
  /** Counts failed sends scheduled again (desk_outbox_retries_total). */
  metrics?: Pick<DeskMetrics, 'outboxRetries'>;
}

/** The upsert of a message's edit: a later stage replaces an earlier one still waiting, never the other way. */
function editStatement(
  channelId: string,
  messageId: string,
  view: MessageView,
  rank: number,
  now: number,
): [string, ...unknown[]] {
  return [
    `INSERT INTO outbox (outbox_key, kind, channel_id, message_id, body, rank, nonce, state, attempts, next_at,
       created_at, updated_at)
     VALUES (?, 'edit', ?, ?, ?, ?, NULL, ${RECORDED}, 0, ?, ?, ?)
     ON CONFLICT (outbox_key) DO UPDATE SET body = excluded.body, rank = excluded.rank, state = ${RESTAGED},
       attempts = 0, next_at = excluded.next_at, updated_at = excluded.updated_at
     WHERE outbox.rank < excluded.rank`,
    editKey(channelId, messageId),
    channelId,
    messageId,
    JSON.stringify(view),
    rank,
    now,
    now,
    now,
  ];
}

const editKey = (channelId: string, messageId: string) => `edit:${channelId}:${messageId}`;

/** An edit sent ahead of its record (decision 2120): its stage, whether Discord has it, whether it holds the message. */
interface SentAhead {
  rank: number;
  body: string;
  held: boolean;
  at: number;
  /** Discord's answer, while it is awaited. */
  sending?: Promise<boolean>;
  shown: boolean;
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
  /** This instance's leases: renewed while their sends run; a send's failure lets go only of its own lease. */
  readonly #token = randomUUID();
  /** Keys being sent by this process, and the channels with a create among them (one create per channel). */
  readonly #inFlight = new Set<string>();
  readonly #busyChannels = new Set<string>();
  /** When this process last handed an alert-lane post of each channel to Discord (performance.now()). */
  readonly #lastAlert = new Map<string, number>();
  #renewedAt = 0;
  #pacedWake: NodeJS.Timeout | undefined;
  /**
   * Edits sent ahead of their record (a receipt's, decision 2120), by key: what Discord shows now, so a record of
   * that very stage (the receipt's own, or the poller's when it won the race) is marked sent without sending it
   * again. `held` from the send until the record's transaction has run (`sendLeased` or `release`): no pass sends
   * an earlier stage of the message between.
   */
  readonly #ahead = new Map<string, SentAhead>();
  /**
   * The edit this process is handing to Discord for each key, until Discord answers it: an edit sent ahead of its
   * record goes right after it (the receipt behind its slip's "submitted"), rather than waiting for the store.
   */
  readonly #editing = new Map<string, Promise<unknown>>();

  constructor(o: OutboxOptions) {
    this.#o = o;
  }

  get #spacing(): number {
    return this.#o.alertSpacingMs ?? ALERT_SPACING_MS;
  }

  /** Records an edit of a message; sent at once unless a later stage of it is already recorded. */
  async edit(channelId: string, messageId: string, view: MessageView, rank: number): Promise<void> {
    await this.#o.store.query(...editStatement(channelId, messageId, view, rank, this.#o.now()));
    this.kick();
  }

  /**
   * Records an edit inside the caller's transaction (a receipt's, with its delivery and its bet's move) and, when no
   * send of this message holds the row, leases it to this process in the same statement: the row comes back then,
   * for `sendLeased` after the commit, so the edit goes out without a pass of the drain. Undefined: a later stage is
   * recorded, or a send of an earlier one holds the row (call `kick` after the commit; that send lets it go).
   */
  async editInTx(
    tx: Tx,
    channelId: string,
    messageId: string,
    view: MessageView,
    rank: number,
  ): Promise<OutboxRow | undefined> {
    const now = this.#o.now();
    const [sql, ...params] = editStatement(channelId, messageId, view, rank, now);
    // A send of this message still running in this process (its lease may have run out) keeps the row to itself.
    if (this.#inFlight.has(params[0] as string) && !this.#ahead.get(params[0] as string)?.held) {
      await tx.query(sql, ...params);
      return undefined;
    }
    const until = now + (this.#o.leaseMs ?? LEASE_MS);
    const free = 'outbox.lease_until <= excluded.created_at';
    const [row] = await tx.query<OutboxRow>(
      `INSERT INTO outbox (outbox_key, kind, channel_id, message_id, body, rank, nonce, state, attempts, next_at,
         created_at, updated_at, lease_until, lease_token)
       VALUES (?, 'edit', ?, ?, ?, ?, NULL, ${RECORDED}, 0, ?, ?, ?, ?, ?)
       ON CONFLICT (outbox_key) DO UPDATE SET body = excluded.body, rank = excluded.rank, state = ${RESTAGED},
         attempts = 0, next_at = excluded.next_at, updated_at = excluded.updated_at,
         lease_until = CASE WHEN ${free} THEN excluded.lease_until ELSE outbox.lease_until END,
         lease_token = CASE WHEN ${free} THEN excluded.lease_token ELSE outbox.lease_token END
       WHERE outbox.rank < excluded.rank
       RETURNING *`,
      ...params,
      until,
      this.#token,
    );
    return row && row.lease_token === this.#token && Number(row.lease_until) === until ? row : undefined;
  }

  /**
   * Sends a message's edit before it is recorded (a receipt's, decision 2120): true once Discord took it. False when
   * a send of the message is running or Discord refused: record it as usual, the outbox sends it. On true the
   * message is held (no pass sends an earlier stage of it) until `sendLeased` or `release` is called for it.
   */
  async sendAhead(channelId: string, messageId: string, view: MessageView, rank: number): Promise<boolean> {
    const key = editKey(channelId, messageId);
    if (this.#stopped || this.#ahead.get(key)?.held) return false;
    // A send of an earlier stage under way in this process: this edit follows Discord's answer to it (at once when
    // only the send's bookkeeping is left). A later stage that send hands on waits for this one while it is held.
    const before = this.#editing.get(key);
    const body = JSON.stringify(view);
    const at = performance.now();
    // One that no record ever matched (its receipt applied some other way) is forgotten after a while.
    for (const [k, a] of this.#ahead) if (!a.held && at - a.at > AHEAD_KEPT_MS) this.#ahead.delete(k);
    const ahead: SentAhead = { rank, body, held: true, at, shown: false };
    const edit = () => this.#o.poster.edit(channelId, messageId, view);
    ahead.sending = (before ? before.then(edit, edit) : edit()).then(
      () => {
        ahead.shown = true;
        ahead.sending = undefined;
        return true;
      },
      (err) => {
        this.#ahead.delete(key);
        this.#o.logger.warn('a receipt sent ahead was refused; it goes through the outbox', { key, err });
        return false;
      },
    );
    this.#ahead.set(key, ahead);
    return ahead.sending;
  }

  /**
   * Lets go of a message `sendAhead` held, when its record took another way (the receipt was applied some other way
   * first, or its record had moved on). A pass then sends what is recorded. With `restage` (the store has the
   * receipt's outcome), when Discord took the edit sent ahead while the message's recorded stage was already sent
   * with another body, that stage is sent again, so the message ends on what the record says, not on what was drawn
   * ahead of it. Without (the receipt's transaction failed: the next start applies it), nothing is sent back over it.
   */
  release(channelId: string, messageId: string, restage = true): void {
    const key = editKey(channelId, messageId);
    const ahead = this.#ahead.get(key);
    if (!ahead?.held) return;
    ahead.held = false;
    if (restage) void this.#restageUnlike(key, ahead).finally(() => this.kick());
    else this.kick();
  }

  async #restageUnlike(key: string, ahead: SentAhead): Promise<void> {
    const shown = ahead.sending ? await ahead.sending : ahead.shown;
    if (!shown || this.#stopped) return;
    const now = this.#o.now();
    await this.#o.store
      .query(
        `UPDATE outbox SET state = ${RESTAGED}, attempts = 0, next_at = ?, updated_at = ?
         WHERE outbox_key = ? AND kind = 'edit' AND state = ${SENT} AND body <> ?`,
        now,
        now,
        key,
        ahead.body,
      )
      .catch((err) => this.#o.logger.warn('outbox could not restage an edit shown ahead', { key, err }));
  }

  /**
   * Sends an entry `editInTx` leased to this process, at once (its transaction has committed). When that very
   * stage went ahead (`sendAhead`), it is only marked sent.
   */
  sendLeased(row: OutboxRow): void {
    const ahead = this.#ahead.get(row.outbox_key);
    // Its transaction ran beside the edit sent ahead: what to do with the row waits for Discord's answer to it.
    if (ahead?.sending) {
      void ahead.sending.then(() => this.sendLeased(row));
      return;
    }
    if (ahead) ahead.held = false;
    if (this.#stopped || this.#inFlight.has(row.outbox_key)) {
      this.kick();
      return;
    }
    this.#dispatch(row);
  }

  /** Whether Discord shows this very row already (it went ahead); the key is forgotten either way once sent. */
  #shownAhead(row: OutboxRow): boolean {
    const ahead = this.#ahead.get(row.outbox_key);
    return ahead?.shown === true && ahead.rank === Number(row.rank) && ahead.body === row.body;
  }

  /**
   * Records a new message under a key that makes it once-only (e.g. `settle:<bet id>`). `alert` puts it in the
   * channel's alert lane, counted under `topic` (its event) when a burst folds it into a summary.
   */
  async create(key: string, channelId: string, view: MessageView, alert?: { topic: string }): Promise<void> {
    await this.createInTx(this.#o.store, key, channelId, view, alert);
    this.kick();
  }

  /** `create` inside the caller's transaction; call `kick` after the commit. */
  async createInTx(
    tx: Pick<Tx, 'query'>,
    key: string,
    channelId: string,
    view: MessageView,
    alert?: { topic: string },
  ): Promise<void> {
    const now = this.#o.now();
    await tx.query(
      `INSERT INTO outbox (outbox_key, kind, channel_id, message_id, body, rank, nonce, state, attempts, next_at,
         created_at, updated_at, lane, topic)
       VALUES (?, 'create', ?, NULL, ?, 0, ?, ${RECORDED}, 0, ?, ?, ?, ?, ?) ON CONFLICT (outbox_key) DO NOTHING`,
      `create:${key}`,
      channelId,
      JSON.stringify(view),
      nonceOf(key),
      now,
      now,
      now,
      alert ? 'alert' : 'money',
      alert?.topic ?? null,
    );
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
    const rows = await this.#o.store.query<{ n: number }>(`SELECT COUNT(*) AS n FROM outbox WHERE state IN ${OPEN}`);
    return Number(rows[0]?.n ?? 0);
  }

  start(): void {
    if (this.#timer || this.#stopped) return;
    this.#timer = setInterval(() => {
      this.kick();
      this.#renew().catch((err) => this.#o.logger.warn('outbox lease renewal failed; will retry', { err }));
    }, this.#o.intervalMs ?? 1_000);
    this.#timer.unref();
    this.kick();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    if (this.#pacedWake) clearTimeout(this.#pacedWake);
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

  /** Resolves when nothing is due any more and no send is under way (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.#draining || this.#sending.size > 0) await Promise.all([this.#draining, ...this.#sending]);
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
      await foldBursts(this.#o.store, this.#o.now(), this.#o.foldedView ?? plainFoldedView);
      const rows = room > 0 ? await this.#take(Math.min(room, BATCH)) : [];
      for (const row of rows) this.#dispatch(row);
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

  /** Hands a leased entry to Discord; its end lets the key (and a create's channel) go. */
  #dispatch(row: OutboxRow): void {
    this.#inFlight.add(row.outbox_key);
    if (row.kind === 'create') this.#busyChannels.add(row.channel_id);
    const sent: Promise<void> = this.#send(row)
      .catch((err) => {
        this.#o.logger.warn('outbox send failed; will retry', { key: row.outbox_key, err });
        return undefined;
      })
      .then((next) => {
        this.#finished++;
        this.#sending.delete(sent);
        this.#inFlight.delete(row.outbox_key);
        if (row.kind === 'create') this.#busyChannels.delete(row.channel_id);
        if (next && !this.#stopped) this.#dispatch(next);
        else if (next) this.kick();
      });
    this.#sending.add(sent);
  }

  /**
   * Leases up to `limit` due entries: money posts before the alert lane, oldest first, at most one create per
   * channel in flight in this process (a row another process holds leased is not due), and a channel's alert-lane
   * posts spaced ALERT_SPACING_MS apart.
   */
  async #take(limit: number): Promise<OutboxRow[]> {
    const now = this.#o.now();
    const due = await this.#o.store.query<Pick<OutboxRow, 'outbox_key' | 'kind' | 'channel_id' | 'lane'>>(
      `SELECT outbox_key, kind, channel_id, lane FROM outbox WHERE state IN ${OPEN} AND next_at <= ? AND lease_until <= ?
       ORDER BY CASE WHEN lane = 'money' THEN 0 ELSE 1 END, created_at LIMIT ${CANDIDATES}`,
      now,
      now,
    );
    const keys: string[] = [];
    const creating = new Set(this.#busyChannels);
    let pacedFor: number | undefined;
    for (const r of due) {
      if (keys.length >= limit) break;
      if (this.#inFlight.has(r.outbox_key) || this.#ahead.get(r.outbox_key)?.held) continue;
      if (r.kind === 'create') {
        if (creating.has(r.channel_id)) continue;
        if (r.lane !== 'money') {
          const wait = (this.#lastAlert.get(r.channel_id) ?? Number.NEGATIVE_INFINITY) + this.#spacing;
          const left = wait - performance.now();
          if (left > 0) {
            pacedFor = Math.min(pacedFor ?? left, left);
            continue;
          }
        }
        creating.add(r.channel_id);
      }
      keys.push(r.outbox_key);
    }
    if (pacedFor !== undefined) this.#wakeIn(pacedFor);
    if (keys.length === 0) return [];
    const rows = await this.#o.store.query<OutboxRow>(
      `UPDATE outbox SET lease_until = ?, lease_token = ?, updated_at = ?,
         sent_at = CASE WHEN kind = 'create' AND sent_at IS NULL THEN ? ELSE sent_at END
       WHERE outbox_key IN (${keys.map(() => '?').join(', ')}) AND state IN ${OPEN} AND lease_until <= ?
       RETURNING *`,
      now + (this.#o.leaseMs ?? LEASE_MS),
      this.#token,
      now,
      now,
      ...keys,
      now,
    );
    for (const row of rows) {
      this.#inFlight.add(row.outbox_key);
      if (row.kind !== 'create') continue;
      this.#busyChannels.add(row.channel_id);
      if (row.lane !== 'money') this.#lastAlert.set(row.channel_id, performance.now());
    }
    return rows;
  }

  /** A pass again once a paced alert may go (the interval's kick may be a second away or not running). */
  #wakeIn(ms: number): void {
    if (this.#pacedWake || this.#stopped) return;
    this.#pacedWake = setTimeout(() => {
      this.#pacedWake = undefined;
      this.kick();
    }, Math.ceil(ms));
    this.#pacedWake.unref();
  }

  /** Extends the leases of this process's sends still running, so none is taken again while it may complete. */
  async #renew(): Promise<void> {
    const leaseMs = this.#o.leaseMs ?? LEASE_MS;
    const at = performance.now();
    if (this.#inFlight.size === 0 || at - this.#renewedAt < leaseMs / 3) return;
    this.#renewedAt = at;
    const keys = [...this.#inFlight];
    await this.#o.store.query(
      `UPDATE outbox SET lease_until = ? WHERE lease_token = ? AND state IN ${OPEN} AND lease_until > 0
         AND outbox_key IN (${keys.map(() => '?').join(', ')})`,
      this.#o.now() + leaseMs,
      this.#token,
      ...keys,
    );
  }

  /** One send; an edit's answer may hand back the message's later stage, recorded meanwhile and leased to us. */
  async #send(row: OutboxRow): Promise<OutboxRow | undefined> {
    const view = JSON.parse(row.body) as MessageView;
    try {
      if (row.kind === 'edit') {
        const key = row.outbox_key;
        // An edit sent ahead of the message: Discord's answer to it first (the two cannot cross), which also says
        // whether this stage is shown already or a later one is, which this one is not sent back over.
        const sending = this.#ahead.get(key)?.sending;
        if (sending) await sending;
        const ahead = this.#ahead.get(key);
        const superseded = ahead?.shown === true && ahead.rank > Number(row.rank);
        if (!superseded && !this.#shownAhead(row)) {
          const editing = this.#o.poster.edit(row.channel_id, row.message_id ?? '', view);
          this.#editing.set(key, editing);
          try {
            await editing;
          } finally {
            if (this.#editing.get(key) === editing) this.#editing.delete(key);
          }
        }
        // Forgotten once its stage (or a later one) is sent; one sent ahead after this send began is still held.
        if (!this.#ahead.get(key)?.held || this.#shownAhead(row)) this.#ahead.delete(key);
        // Done for the stage that was sent, whoever holds the lease now. A later stage recorded meanwhile stays
        // pending: under this send's lease it is leased on, and sent at once (the receipt behind "submitted").
        const until = this.#o.now() + (this.#o.leaseMs ?? LEASE_MS);
        const [next] = await this.#o.store.query<OutboxRow>(
          `UPDATE outbox SET state = CASE WHEN rank = ? THEN ${SENT} ELSE state END,
             lease_until = CASE WHEN rank = ? THEN 0 WHEN lease_token = ? THEN ? ELSE lease_until END, updated_at = ?
           WHERE outbox_key = ? AND state IN ${OPEN} RETURNING *`,
          row.rank,
          row.rank,
          this.#token,
          until,
          this.#o.now(),
          row.outbox_key,
        );
        const leasedOn =
          next !== undefined && isOpen(next) && next.lease_token === this.#token && Number(next.lease_until) === until;
        return leasedOn ? next : undefined;
      }
      const id = await this.#post(row, view);
      await this.#o.store.query(
        `UPDATE outbox SET state = ${SENT}, message_id = ?, lease_until = 0, updated_at = ?
         WHERE outbox_key = ? AND state IN ${OPEN}`,
        id,
        this.#o.now(),
        row.outbox_key,
      );
    } catch (err) {
      await this.#failed(row, err);
    }
    return undefined;
  }

  /**
   * Posts a create under its nonce while the nonce is trusted. One first sent longer ago may have landed without
   * the answer reaching us, and Discord may have forgotten its nonce: it is looked for in the channel, and sent
   * under a new nonce (trusted from now) only when not found.
   */
  async #post(row: OutboxRow, view: MessageView): Promise<string> {
    const now = this.#o.now();
    const firstSent = Number(row.sent_at ?? now);
    let nonce = row.nonce ?? undefined;
    if (nonce !== undefined && now - firstSent >= NONCE_TRUST_MS) {
      const found = await this.#o.poster.findPosted?.(row.channel_id, view, firstSent);
      if (found) return found;
      nonce = nonceOf(`${row.outbox_key}@${now}`);
      await this.#o.store.query(
        'UPDATE outbox SET nonce = ?, sent_at = ? WHERE outbox_key = ? AND lease_token = ?',
        nonce,
        now,
        row.outbox_key,
        this.#token,
      );
    }
    return this.#o.poster.post(row.channel_id, view, nonce);
  }

  async #failed(row: OutboxRow, err: unknown): Promise<void> {
    const attempts = Number(row.attempts) + 1;
    const transient = isTransient(err);
    const give = !transient && attempts >= MAX_HARD_FAILURES;
    const retryAfterMs = (err as { retryAfterMs?: number }).retryAfterMs;
    const backoff = Math.min(MAX_BACKOFF_MS, retryAfterMs ?? 500 * 2 ** Math.min(attempts, 7));
    const message = String((err as Error)?.message ?? err).slice(0, 300);
    // Only a lease this send still holds is let go: a row another pass took over is that pass's. The failed stage
    // backs off; a later stage recorded while it was sent keeps its state and is sent by the next pass.
    const failed = 'rank = ?';
    await this.#o.store.query(
      `UPDATE outbox SET state = CASE WHEN ${failed} THEN ? ELSE state END,
         attempts = CASE WHEN ${failed} THEN ? ELSE attempts END,
         next_at = CASE WHEN ${failed} THEN ? ELSE next_at END,
         last_error = CASE WHEN ${failed} THEN ? ELSE last_error END,
         lease_until = 0, updated_at = ?
       WHERE outbox_key = ? AND state IN ${OPEN} AND lease_token = ?`,
      row.rank,
      give ? OUTBOX_MOVES.giveUp.to : OUTBOX_MOVES.backOff.to,
      row.rank,
      attempts,
      row.rank,
      this.#o.now() + backoff,
      row.rank,
      message,
      this.#o.now(),
      row.outbox_key,
      this.#token,
    );
    this.#o.metrics?.outboxRetries.inc({ outcome: give ? 'gave_up' : 'retry' });
    const fields = { key: row.outbox_key, attempts, status: statusOf(err), err: message };
    if (give) this.#o.logger.error('Discord refused a money post; giving up on it', fields);
    else if (attempts === 1 || attempts % 10 === 0) this.#o.logger.warn('Discord write failed; will retry', fields);
  }
}

/** A folded burst's post when no wing words it: the count alone. */
function plainFoldedView(counts: readonly { topic: string; n: number }[]): MessageView {
  const total = counts.reduce((sum, c) => sum + c.n, 0);
  return { content: `${total} more post${total === 1 ? '' : 's'} folded into this one.`, embeds: [], components: [] };
}
