import type { BotStore } from '../store.js';

export interface SlipRecord<P = unknown> {
  slipId: string;
  guildId: string | null;
  channelId: string;
  messageId: string | null;
  userId: string;
  payload: P;
  createdAt: number;
  expiresAt: number;
}

interface SlipRow extends Record<string, unknown> {
  slip_id: string;
  guild_id: string | null;
  channel_id: string;
  message_id: string | null;
  user_id: string;
  payload: string;
  created_at: number;
  expires_at: number;
}

const toRecord = <P>(r: SlipRow): SlipRecord<P> => ({
  slipId: r.slip_id,
  guildId: r.guild_id,
  channelId: r.channel_id,
  messageId: r.message_id,
  userId: r.user_id,
  payload: JSON.parse(r.payload) as P,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
});

export type ClaimResult<P> =
  | { kind: 'claimed'; slip: SlipRecord<P> }
  | { kind: 'not_owner'; ownerId: string }
  | { kind: 'expired'; slip: SlipRecord<P> }
  | { kind: 'gone' };

/** Slips awaiting Confirm: a claim is one DELETE ... RETURNING, so one click wins among any number. */
export class SlipRepo {
  constructor(private readonly store: BotStore) {}

  async create<P>(slip: SlipRecord<P>): Promise<void> {
    await this.store.query(
      `INSERT INTO slips (slip_id, guild_id, channel_id, message_id, user_id, payload, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      slip.slipId,
      slip.guildId,
      slip.channelId,
      slip.messageId,
      slip.userId,
      JSON.stringify(slip.payload),
      slip.createdAt,
      slip.expiresAt,
    );
  }

  async setMessage(slipId: string, channelId: string, messageId: string): Promise<void> {
    await this.store.query(
      'UPDATE slips SET channel_id = ?, message_id = ? WHERE slip_id = ?',
      channelId,
      messageId,
      slipId,
    );
  }

  async get<P>(slipId: string): Promise<SlipRecord<P> | undefined> {
    const rows = await this.store.query<SlipRow>('SELECT * FROM slips WHERE slip_id = ?', slipId);
    return rows[0] === undefined ? undefined : toRecord<P>(rows[0]);
  }

  /** Takes the slip for its owner, once. Others, late clicks and expired slips get a reason instead. */
  async claim<P>(slipId: string, userId: string, now: number): Promise<ClaimResult<P>> {
    const rows = await this.store.query<SlipRow>(
      'DELETE FROM slips WHERE slip_id = ? AND user_id = ? AND expires_at > ? RETURNING *',
      slipId,
      userId,
      now,
    );
    if (rows[0] !== undefined) return { kind: 'claimed', slip: toRecord<P>(rows[0]) };
    const left = await this.get<P>(slipId);
    if (left === undefined) return { kind: 'gone' };
    // Expiry first: whoever clicks an expired slip gets it closed; the row goes, its payload comes back.
    if (left.expiresAt <= now) {
      const gone = await this.store.query<SlipRow>(
        'DELETE FROM slips WHERE slip_id = ? AND expires_at <= ? RETURNING *',
        slipId,
        now,
      );
      return gone[0] === undefined ? { kind: 'gone' } : { kind: 'expired', slip: toRecord<P>(gone[0]) };
    }
    if (left.userId !== userId) return { kind: 'not_owner', ownerId: left.userId };
    return { kind: 'gone' };
  }

  /** Cancel is a claim too: the owner's Cancel and Confirm cannot both win. */
  async cancel(slipId: string, userId: string): Promise<ClaimResult<unknown>> {
    return this.claim(slipId, userId, Number.NEGATIVE_INFINITY);
  }
}
