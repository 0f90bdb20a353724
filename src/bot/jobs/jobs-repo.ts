import { JOB_MOVES, JOB_STATES, sqlStates } from '../model/job-states.js';
import type { BotStore, Tx } from '../store/index.js';

export type { JobState } from '../model/job-states.js';

import type { JobState } from '../model/job-states.js';

export interface JobRecord<C = unknown> {
  correlationId: string;
  kind: string;
  guildId: string | null;
  channelId: string | null;
  messageId: string | null;
  userId: string | null;
  sessionId: string | null;
  envelope: Record<string, unknown>;
  context: C;
  state: JobState;
  outcome: unknown;
  timeoutAt: number | null;
  createdAt: number;
}

interface JobRow extends Record<string, unknown> {
  correlation_id: string;
  kind: string;
  guild_id: string | null;
  channel_id: string | null;
  message_id: string | null;
  user_id: string | null;
  session_id: string | null;
  envelope: string;
  context: string;
  state: JobState;
  outcome: string | null;
  timeout_at: number | null;
  created_at: number;
}

const toRecord = <C>(r: JobRow): JobRecord<C> => ({
  correlationId: r.correlation_id,
  kind: r.kind,
  guildId: r.guild_id,
  channelId: r.channel_id,
  messageId: r.message_id,
  userId: r.user_id,
  sessionId: r.session_id,
  envelope: JSON.parse(r.envelope) as Record<string, unknown>,
  context: JSON.parse(r.context) as C,
  state: r.state,
  outcome: r.outcome === null ? null : JSON.parse(r.outcome),
  timeoutAt: r.timeout_at,
  createdAt: r.created_at,
});

export interface NewJob<C> {
  correlationId: string;
  kind: string;
  guildId?: string | null;
  channelId?: string | null;
  messageId?: string | null;
  userId?: string | null;
  sessionId?: string | null;
  envelope: Record<string, unknown>;
  context: C;
}

/**
 * Async jobs from their 202 to the Discord post. pending → resolved (the first outcome wins, one
 * UPDATE of a pending row) → posted (jobs/model/job-states.ts). A lease lets another process take over pending rows.
 */
export class JobRepo {
  constructor(
    private readonly store: BotStore,
    private readonly owner: string,
    private readonly leaseMs = 60_000,
  ) {}

  async insert<C>(job: NewJob<C>, now: number): Promise<void> {
    const timeout = Date.parse(String(job.envelope.timeout_at ?? ''));
    await this.store.query(
      `INSERT INTO jobs (correlation_id, kind, guild_id, channel_id, message_id, user_id, session_id, envelope,
         context, state, owner, lease_until, timeout_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (correlation_id) DO NOTHING`,
      job.correlationId,
      job.kind,
      job.guildId ?? null,
      job.channelId ?? null,
      job.messageId ?? null,
      job.userId ?? null,
      job.sessionId ?? null,
      JSON.stringify(job.envelope),
      JSON.stringify(job.context),
      JOB_MOVES.record.to,
      this.owner,
      now + this.leaseMs,
      Number.isFinite(timeout) ? timeout : null,
      now,
      now,
    );
  }

  async get<C>(correlationId: string): Promise<JobRecord<C> | undefined> {
    const rows = await this.store.query<JobRow>('SELECT * FROM jobs WHERE correlation_id = ?', correlationId);
    return rows[0] === undefined ? undefined : toRecord<C>(rows[0]);
  }

  /** Records the outcome if none was recorded yet; returns the job only to the first caller. */
  resolve<C>(correlationId: string, outcome: unknown, now: number): Promise<JobRecord<C> | undefined> {
    return this.resolveInTx(this.store, correlationId, outcome, now, 'resolved');
  }

  /**
   * `resolve` inside the caller's transaction; `posted` when what the outcome shows is recorded (in the outbox) by
   * the same transaction.
   */
  async resolveInTx<C>(
    tx: Pick<Tx, 'query'>,
    correlationId: string,
    outcome: unknown,
    now: number,
    state: 'resolved' | 'posted',
  ): Promise<JobRecord<C> | undefined> {
    const rows = await tx.query<JobRow>(
      `UPDATE jobs SET state = ?, outcome = ?, updated_at = ?
       WHERE correlation_id = ? AND state IN ${sqlStates(JOB_STATES.pending)} RETURNING *`,
      state,
      JSON.stringify(outcome),
      now,
      correlationId,
    );
    return rows[0] === undefined ? undefined : toRecord<C>(rows[0]);
  }

  async markPosted(correlationId: string, now: number): Promise<void> {
    await this.store.query(
      `UPDATE jobs SET state = ?, updated_at = ? WHERE correlation_id = ?`,
      JOB_MOVES.markPosted.to,
      now,
      correlationId,
    );
  }

  /** Takes over pending jobs whose lease ran out (a crashed or stopped process) or that are ours already. */
  async takeOverPending<C>(now: number): Promise<JobRecord<C>[]> {
    const rows = await this.store.query<JobRow>(
      `UPDATE jobs SET owner = ?, lease_until = ?, updated_at = ?
       WHERE state IN ${sqlStates(JOB_STATES.pending)} AND (lease_until <= ? OR owner = ?) RETURNING *`,
      this.owner,
      now + this.leaseMs,
      now,
      now,
      this.owner,
    );
    return rows.map((r) => toRecord<C>(r));
  }

  async renewLeases(now: number): Promise<void> {
    await this.store.query(
      `UPDATE jobs SET lease_until = ? WHERE state IN ${sqlStates(JOB_STATES.pending)} AND owner = ?`,
      now + this.leaseMs,
      this.owner,
    );
  }

  /** At a clean stop: another process (or this one restarted) may take our pending jobs over at once. */
  async releaseLeases(): Promise<void> {
    await this.store.query(
      `UPDATE jobs SET lease_until = 0 WHERE owner = ? AND state IN ${sqlStates(JOB_STATES.pending)}`,
      this.owner,
    );
  }

  /** Resolved but not yet posted (the process stopped between the two). */
  async unposted<C>(): Promise<JobRecord<C>[]> {
    const rows = await this.store.query<JobRow>(`SELECT * FROM jobs WHERE state IN ${sqlStates(JOB_STATES.resolved)}`);
    return rows.map((r) => toRecord<C>(r));
  }

  async recent<C>(filter: { guildId?: string | null; limit: number }): Promise<JobRecord<C>[]> {
    const rows =
      filter.guildId === undefined || filter.guildId === null
        ? await this.store.query<JobRow>('SELECT * FROM jobs ORDER BY created_at DESC LIMIT ?', filter.limit)
        : await this.store.query<JobRow>(
            'SELECT * FROM jobs WHERE guild_id = ? ORDER BY created_at DESC LIMIT ?',
            filter.guildId,
            filter.limit,
          );
    return rows.map((r) => toRecord<C>(r));
  }
}
