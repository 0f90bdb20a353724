import { type SlipPayload, type StoredSlipPayload, slipFromStored } from '../model/slip-rules.js';
import type { BotStore } from '../store/index.js';

/** The columns a slip's later rows (a bet record, a proposal) keep of it: whose, where, through which account. */
export interface SlipOwnerColumns extends Record<string, unknown> {
  slip_id: string;
  guild_key: string;
  guild_id: string | null;
  channel_id: string;
  message_id: string | null;
  user_id: string;
  session_id: string;
  bookie: string;
}

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

const toRecord = (r: SlipRow): SlipRecord<SlipPayload> => ({
  slipId: r.slip_id,
  guildId: r.guild_id,
  channelId: r.channel_id,
  messageId: r.message_id,
  userId: r.user_id,
  payload: slipFromStored(JSON.parse(r.payload) as StoredSlipPayload),
  createdAt: r.created_at,
  expiresAt: r.expires_at,
});

/** Slips awaiting Confirm. Confirm claims one by writing its bet record (repos/bet-records.ts); close removes one. */

export class SlipRepo {
  constructor(private readonly store: BotStore) {}

  async create(slip: SlipRecord<SlipPayload>): Promise<void> {
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
    // A proposal's last approval can claim the slip before its message id is known: the bet takes it now.
    await this.store.query(
      'UPDATE bet_records SET channel_id = ?, message_id = ? WHERE slip_id = ? AND message_id IS NULL',
      channelId,
      messageId,
      slipId,
    );
  }

  /** Stores the message of a slip whose id was never stored (only if none was). */
  async adoptMessage(slipId: string, channelId: string, messageId: string): Promise<void> {
    await this.store.query(
      'UPDATE slips SET channel_id = ?, message_id = ? WHERE slip_id = ? AND message_id IS NULL',
      channelId,
      messageId,
      slipId,
    );
  }

  /** Replaces the payload of a slip still open (a proposal re-priced after its approvals lapsed). */
  async setPayload(slipId: string, payload: SlipPayload): Promise<void> {
    await this.store.query('UPDATE slips SET payload = ? WHERE slip_id = ?', JSON.stringify(payload), slipId);
  }

  async get(slipId: string): Promise<SlipRecord<SlipPayload> | undefined> {
    const rows = await this.store.query<SlipRow>('SELECT * FROM slips WHERE slip_id = ?', slipId);
    return rows[0] === undefined ? undefined : toRecord(rows[0]);
  }

  /**
   * Closes a slip nobody confirmed (cancel, expiry, a refusal before sending): true only if this call removed
   * it and no Confirm had claimed it (a bet record for the slip), so a close and a Confirm cannot both win.
   */
  async close(slipId: string): Promise<boolean> {
    // Serialized with the claim of the same slip (repos/bet-records.ts): see BotStore.serialize.
    const rows = await this.store.serialize(`slip:${slipId}`, () =>
      this.store.query(
        'DELETE FROM slips WHERE slip_id = ? AND NOT EXISTS (SELECT 1 FROM bet_records b WHERE b.slip_id = ?) RETURNING slip_id',
        slipId,
        slipId,
      ),
    );
    return rows.length === 1;
  }

  /** Expired slips nobody confirmed whose message was not closed yet (oldest first). */
  async expired(now: number, limit: number): Promise<SlipRecord<SlipPayload>[]> {
    const rows = await this.store.query<SlipRow>(
      `SELECT * FROM slips s WHERE s.expires_at <= ? AND s.message_id IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM bet_records b WHERE b.slip_id = s.slip_id)
       AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.outbox_key = 'edit:' || s.channel_id || ':' || s.message_id)
       ORDER BY s.expires_at LIMIT ?`,
      now,
      limit,
    );
    return rows.map(toRecord);
  }
}
