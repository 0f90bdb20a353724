import type { BotStore } from '../store.js';

export type ReserveResult = { ok: true; total: number } | { ok: false; used: number };

/** Per user per day stake totals; a reservation is one conditional upsert, so two bets cannot both slip under. */
export class StakeRepo {
  constructor(private readonly store: BotStore) {}

  async reserve(guildId: string, userId: string, day: string, stake: number, dayLimit: number): Promise<ReserveResult> {
    if (stake > dayLimit) return { ok: false, used: await this.used(guildId, userId, day) };
    const rows = await this.store.query<{ total: number }>(
      `INSERT INTO stake_usage (guild_id, user_id, day, total) VALUES (?, ?, ?, ?)
       ON CONFLICT (guild_id, user_id, day) DO UPDATE SET total = stake_usage.total + excluded.total
       WHERE stake_usage.total + excluded.total <= ? RETURNING total`,
      guildId,
      userId,
      day,
      stake,
      dayLimit + 1e-9,
    );
    if (rows[0] !== undefined) return { ok: true, total: rows[0].total };
    return { ok: false, used: await this.used(guildId, userId, day) };
  }

  /** Gives a reservation back when the bet was not placed. */
  async release(guildId: string, userId: string, day: string, stake: number): Promise<void> {
    await this.store.query(
      'UPDATE stake_usage SET total = CASE WHEN total > ? THEN total - ? ELSE 0 END WHERE guild_id = ? AND user_id = ? AND day = ?',
      stake,
      stake,
      guildId,
      userId,
      day,
    );
  }

  async used(guildId: string, userId: string, day: string): Promise<number> {
    const rows = await this.store.query<{ total: number }>(
      'SELECT total FROM stake_usage WHERE guild_id = ? AND user_id = ? AND day = ?',
      guildId,
      userId,
      day,
    );
    return rows[0]?.total ?? 0;
  }
}
