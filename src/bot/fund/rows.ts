// The fund's rows as the store holds them, read into the model's records; shared by the repository and the strike.
import type { LedgerInput } from '../ledger/index.js';
import type { CashoutAsk } from './model/fund.js';
import type {
  Cashout,
  Contribution,
  FundAccount,
  StrikeInputs,
  StrikeRecord,
  WithdrawalAttempt,
} from './model/fund-records.js';
import {
  CASHOUT_OWED,
  type CashoutState,
  type ContributionState,
  sqlList,
  type WithdrawalState,
} from './model/fund-states.js';

export interface FundRow {
  guildKey: string;
  openingPriceCents: number;
  units: number;
  highWaterPrice: number;
  feesAccruedCents: number;
  lastStrikeId: string | null;
}

export const n = (v: unknown) => Number(v);
export const nOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

export const toContribution = (r: Record<string, unknown>): Contribution => ({
  contributionId: String(r.contribution_id),
  memberId: String(r.member_id),
  amountCents: n(r.amount_cents),
  sessionId: String(r.session_id),
  reference: (r.reference as string | null) ?? null,
  state: r.state as ContributionState,
  strikeId: (r.strike_id as string | null) ?? null,
  units: nOrNull(r.units),
  depositId: (r.deposit_id as string | null) ?? null,
  note: (r.note as string | null) ?? null,
  createdAt: n(r.created_at),
});

export const toCashout = (r: Record<string, unknown>): Cashout => ({
  cashoutId: String(r.cashout_id),
  memberId: String(r.member_id),
  ask: JSON.parse(String(r.ask)) as CashoutAsk,
  state: r.state as CashoutState,
  approvedBy: (r.approved_by as string | null) ?? null,
  strikeId: (r.strike_id as string | null) ?? null,
  units: nOrNull(r.units),
  cents: nOrNull(r.cents),
  note: (r.note as string | null) ?? null,
  requestedAt: n(r.requested_at),
});

export const toAttempt = (r: Record<string, unknown>): WithdrawalAttempt => ({
  attemptId: String(r.attempt_id),
  cashoutId: String(r.cashout_id),
  guildKey: String(r.guild_key),
  sessionId: String(r.session_id),
  amountCents: n(r.amount_cents),
  state: r.state as WithdrawalState,
  correlationId: (r.correlation_id as string | null) ?? null,
  bookmakerStatus: (r.bookmaker_status as string | null) ?? null,
  gatewayWithdrawalId: (r.gateway_withdrawal_id as string | null) ?? null,
  createdAt: n(r.created_at),
  note: (r.note as string | null) ?? null,
});

export const toAccount = (r: Record<string, unknown>): FundAccount => ({
  guildKey: String(r.guild_key),
  bookie: String(r.bookie),
  username: String(r.username),
  floatCents: n(r.float_cents),
  addedBy: String(r.added_by),
  addedAt: n(r.added_at),
  bridgeFrom: n(r.bridge_from),
});

export const toStrike = (r: Record<string, unknown>): StrikeRecord => ({
  strikeId: String(r.strike_id),
  guildKey: String(r.guild_key),
  dealingKey: String(r.dealing_key),
  at: n(r.at),
  grossNavCents: n(r.gross_nav_cents),
  feeCents: n(r.fee_cents),
  navCents: n(r.nav_cents),
  unitsBefore: n(r.units_before),
  price: n(r.price),
  navAfterCents: n(r.nav_after_cents),
  unitsAfter: n(r.units_after),
  residualCents: n(r.residual_cents),
  inputs: JSON.parse(String(r.inputs)) as StrikeInputs,
  actor: (r.actor as string | null) ?? null,
});

export const IN_FLIGHT_BETS = ['sending', 'submitted', 'unknown', 'missing'] as const;
/** Cash-out states whose cents are owed to the member (struck, not yet paid). */
export const OWED = sqlList(CASHOUT_OWED);

export function fundOf(r: Record<string, unknown>): FundRow {
  return {
    guildKey: String(r.guild_key),
    openingPriceCents: n(r.opening_price_cents),
    units: n(r.units),
    highWaterPrice: n(r.high_water_price),
    feesAccruedCents: n(r.fees_accrued_cents),
    lastStrikeId: (r.last_strike_id as string | null) ?? null,
  };
}

/** A bonus bet's stake came from a token, not cash: it costs the fund nothing (decision 1700). */
export function isBonusBet(payload: string): boolean {
  try {
    return (JSON.parse(payload) as { useBonusBet?: boolean }).useBonusBet === true;
  } catch {
    return false;
  }
}

export function entry(
  guildKey: string,
  at: number,
  kind: LedgerInput['kind'],
  ref: string,
  actor: string | null,
  amountCents: number | null,
  data: Record<string, unknown>,
): LedgerInput {
  return { at, guildKey, kind, ref, actor, amountCents, data };
}
