/** What a place_bet or place_promo job came to, whichever of the spec's result shapes carried it. */
export interface BetOutcome {
  /** True only when the bookmaker placed the bet and gave it an id. */
  placed: boolean;
  /** The bookmaker's bet id, when placed. */
  betId?: string;
  /** Decimal odds the bet was struck at, when reported. */
  odds?: number;
  /** Stake in dollars, when reported. */
  stake?: number;
  /** Why it was not placed (the gateway's error text), or the message it sent with the result. */
  message?: string;
}

type Rec = Record<string, unknown>;

const isRec = (v: unknown): v is Rec => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/**
 * Normalises the result of a place_bet or place_promo job. The spec shows two shapes: a poll result with the
 * receipt nested under `result.bet_result` (`result.success` is the job's verdict), and the webhook example and
 * promo results with the receipt flat on `result`. The nested receipt wins where both speak; a bet counts as
 * placed only when every `success` present is true and a bet id came back.
 */
export function betOutcomeOf(result: unknown): BetOutcome {
  if (!isRec(result)) return { placed: false, message: 'the job completed without a result' };
  const inner = isRec(result.bet_result) ? result.bet_result : undefined;
  const success = result.success === true && (inner === undefined || inner.success !== false);
  const betId =
    str(inner?.bet_id) ?? str(result.bet_id) ?? (typeof result.bet_id === 'number' ? String(result.bet_id) : undefined);
  const odds = num(inner?.odds) ?? num(result.odds);
  const stake = num(inner?.stake) ?? num(result.stake);
  const message = str(inner?.error) ?? str(result.error) ?? str(result.message);
  const placed = success && betId !== undefined;
  const out: BetOutcome = { placed };
  if (betId !== undefined) out.betId = betId;
  if (odds !== undefined) out.odds = odds;
  if (stake !== undefined) out.stake = stake;
  if (message !== undefined) out.message = message;
  else if (!placed)
    out.message = success ? 'the gateway reported success without a bet id' : 'the bookmaker refused the bet';
  return out;
}
