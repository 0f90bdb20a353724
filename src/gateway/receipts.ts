/**
 * What a place_bet or place_promo job came to, whichever of the spec's result shapes carried it: placed (with the
 * bookmaker's bet id), refused, or `unreadable`.
 */
export type BetOutcome = PlacedBet | UnplacedBet;

/** The bookmaker placed the bet and gave it an id. */
export interface PlacedBet {
  placed: true;
  /** The bookmaker's bet id. */
  betId: string;
  /** Decimal odds the bet was struck at, when reported. */
  odds?: number;
  /** Stake in dollars, when reported. */
  stake?: number;
  /** The message the gateway sent with the result, if any. */
  message?: string;
}

/** Not read as placed: refused by the bookmaker, or (with `unreadable`) a result that is not a receipt at all. */
export interface UnplacedBet {
  placed: false;
  /**
   * True when the result does not read as a receipt (no `success` verdict, a success without a bet id, a
   * malformed `bet_result`). It is NOT a refusal: the bet may stand, so never release its stake on it; check the
   * account's transactions instead.
   */
  unreadable?: true;
  /** The bet id, when one came back without a success verdict. */
  betId?: string;
  /** Decimal odds, when reported. */
  odds?: number;
  /** Stake in dollars, when reported. */
  stake?: number;
  /** Why it was not placed (the gateway's error text), or what made the result unreadable. */
  message?: string;
}

type Rec = Record<string, unknown>;

const isRec = (v: unknown): v is Rec => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

const unreadable = (message: string): UnplacedBet => ({ placed: false, unreadable: true, message });

/**
 * Normalises the result of a place_bet or place_promo job. The spec shows two shapes: a poll result with the
 * receipt nested under `result.bet_result` (`result.success` is the job's verdict), and the webhook example and
 * promo results with the receipt flat on `result`. The nested receipt wins where both speak; a bet counts as
 * placed only when every `success` present is true and a bet id came back. A result with no boolean verdict, a
 * `bet_result` that is not a receipt, or a success without a bet id is `unreadable`, never a refusal.
 */
export function betOutcomeOf(result: unknown): BetOutcome {
  if (!isRec(result)) return unreadable('the job completed without a result');
  if (typeof result.success !== 'boolean') return unreadable('the result carries no success verdict');
  const nested = result.bet_result;
  if (nested !== undefined && nested !== null && !isRec(nested)) return unreadable('bet_result is not a receipt');
  const inner = isRec(nested) ? nested : undefined;
  if (inner && typeof inner.success !== 'boolean') return unreadable('bet_result carries no success verdict');
  const success = result.success && (inner === undefined || inner.success === true);
  const betId =
    str(inner?.bet_id) ?? str(result.bet_id) ?? (typeof result.bet_id === 'number' ? String(result.bet_id) : undefined);
  const odds = num(inner?.odds) ?? num(result.odds);
  const stake = num(inner?.stake) ?? num(result.stake);
  const message = str(inner?.error) ?? str(result.error) ?? str(result.message);
  const facts = {
    ...(odds !== undefined ? { odds } : {}),
    ...(stake !== undefined ? { stake } : {}),
  };
  if (success && betId !== undefined) {
    return { placed: true, betId, ...facts, ...(message !== undefined ? { message } : {}) };
  }
  if (success) return unreadable('the gateway reported success without a bet id');
  return {
    placed: false,
    ...(betId !== undefined ? { betId } : {}),
    ...facts,
    message: message ?? 'the bookmaker refused the bet',
  };
}

/** What a placed bet's result says was placed, when it says so (the spec's receipt names neither). */
export interface PlacedSelection {
  /** The selection's label as the bookmaker took it. */
  selection?: string;
  /** The market key. */
  market?: string;
  /** The line of a handicap or total, or null when the selection has none. */
  line?: number | null;
}

/**
 * The selection a bet result reports as placed (`selection`, `market`, `line` beside the receipt, or inside
 * `bet_result`), so a caller can check it is the one it asked for. Fields the result does not carry are absent.
 */
export function placedSelectionOf(result: unknown): PlacedSelection {
  if (!isRec(result)) return {};
  const inner = isRec(result.bet_result) ? result.bet_result : {};
  const selection = str(inner.selection) ?? str(result.selection);
  const market = str(inner.market) ?? str(result.market);
  const rawLine = 'line' in inner ? inner.line : result.line;
  const line = rawLine === null ? null : num(rawLine);
  return {
    ...(selection !== undefined ? { selection } : {}),
    ...(market !== undefined ? { market } : {}),
    ...(line !== undefined ? { line } : {}),
  };
}
