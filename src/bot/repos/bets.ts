import type { BotStore } from '../store.js';

export interface PlacedBet {
  betId: string;
  sessionId: string;
  guildId: string | null;
  channelId: string | null;
  userId: string | null;
  correlationId: string | null;
  detail: Record<string, unknown>;
  placedAt: number;
}

interface BetRow extends Record<string, unknown> {
  bet_id: string;
  session_id: string;
  guild_id: string | null;
  channel_id: string | null;
  user_id: string | null;
  correlation_id: string | null;
  detail: string;
  placed_at: number;
}

const toBet = (r: BetRow): PlacedBet => ({
  betId: r.bet_id,
  sessionId: r.session_id,
  guildId: r.guild_id,
  channelId: r.channel_id,
  userId: r.user_id,
  correlationId: r.correlation_id,
  detail: JSON.parse(r.detail) as Record<string, unknown>,
  placedAt: r.placed_at,
});

/** Bets the bot placed, open until the settlement watcher sees them settle. */
export class BetRepo {
  constructor(private readonly store: BotStore) {}

  async recordPlaced(bet: PlacedBet): Promise<void> {
    await this.store.query(
      `INSERT INTO bets (bet_id, session_id, guild_id, channel_id, user_id, correlation_id, detail, state, placed_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, 'open', ?) ON CONFLICT (bet_id) DO NOTHING`,
      bet.betId,
      bet.sessionId,
      bet.guildId,
      bet.channelId,
      bet.userId,
      bet.correlationId,
      JSON.stringify(bet.detail),
      bet.placedAt,
    );
  }

  async openSessions(): Promise<string[]> {
    const rows = await this.store.query<{ session_id: string }>(
      "SELECT DISTINCT session_id FROM bets WHERE state = 'open'",
    );
    return rows.map((r) => r.session_id);
  }

  async openBets(sessionId: string): Promise<PlacedBet[]> {
    const rows = await this.store.query<BetRow>(
      "SELECT * FROM bets WHERE state = 'open' AND session_id = ?",
      sessionId,
    );
    return rows.map(toBet);
  }

  /** Closes the bet; true only for the caller that closed it (one notice per settlement). */
  async settle(betId: string, status: string): Promise<boolean> {
    const rows = await this.store.query(
      "UPDATE bets SET state = ? WHERE bet_id = ? AND state = 'open' RETURNING bet_id",
      `settled:${status}`,
      betId,
    );
    return rows.length === 1;
  }
}
