/**
 * One reading of a place_bet result, whichever shape the gateway used: the spec's poll result
 * (`success` plus `bet_result {success, bet_id, odds, stake, error}`) or the webhook example's flat receipt
 * (`success, bet_id, odds, stake, potential_return`). Anything else is `unreadable`: never taken as a
 * refusal, because a stake must not be released for a bet that may stand.
 */
export type BetReceipt =
  | { kind: 'placed'; betId: string; odds: number | undefined; stake: number | undefined }
  | { kind: 'refused'; message: string }
  | { kind: 'unreadable' };

const obj = (v: unknown): Record<string, unknown> | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

export function betReceiptOf(result: unknown): BetReceipt {
  const outer = obj(result);
  if (!outer || typeof outer.success !== 'boolean') return { kind: 'unreadable' };
  const inner = outer.bet_result === undefined || outer.bet_result === null ? undefined : obj(outer.bet_result);
  if (outer.bet_result !== undefined && outer.bet_result !== null && !inner) return { kind: 'unreadable' };
  if (inner && typeof inner.success !== 'boolean') return { kind: 'unreadable' };
  const success = outer.success && (inner ? inner.success === true : true);
  const betId = inner?.bet_id ?? outer.bet_id;
  if (success) {
    if (typeof betId !== 'string' || betId.length === 0) return { kind: 'unreadable' };
    return { kind: 'placed', betId, odds: num(inner?.odds ?? outer.odds), stake: num(inner?.stake ?? outer.stake) };
  }
  const error = inner?.error ?? outer.error;
  return {
    kind: 'refused',
    message: typeof error === 'string' && error !== '' ? error : 'the bookmaker refused the bet',
  };
}
