/** The bet a Confirm is about to place, as the fund's risk limits read it. */
export interface RiskBet {
  bookie: string;
  account: string | null | undefined;
  sessionId: string;
  epk: string;
  eventName: string;
  stakeCents: number;
}

/**
 * The fund's risk limits as the bet wing asks them (at a slip's Confirm, at a proposal's last approval): the fund
 * wing answers, and the composition hands it in, so the bet wing never reaches into the fund's insides.
 */
export type RiskCheck = (
  guildId: string,
  timezone: string,
  bet: RiskBet,
) => Promise<{ ok: true } | { ok: false; message: string }>;
