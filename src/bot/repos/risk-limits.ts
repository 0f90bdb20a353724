import { z } from 'zod';
import { EXPOSED } from '../model/bet-states.js';
import { centsFromDollars } from '../model/money.js';
import type { RiskLimits, Stop } from '../model/risk-limits.js';
import type { SlipPayload } from '../model/slip-rules.js';
import type { BotStore } from '../store/index.js';

/**
 * The fund's risk limits and its drawdown stop, per server (decision 1921): a keyv value changed only under the
 * server's lock (read-modify-write), every change also a ledger entry written by the caller. `markFrom` is when
 * the drawdown's high-water mark last restarted (the last resume; 0: the first strike).
 */
const StateSchema = z.object({
  limits: z
    .object({
      drawdownBps: z.number().int().optional(),
      dailyLossCents: z.number().int().optional(),
      eventShareBps: z.number().int().optional(),
      resumeQuorum: z.number().int().optional(),
    })
    .default({}),
  stop: z
    .object({
      at: z.number(),
      strikeId: z.string(),
      drawdownBps: z.number(),
      votes: z.array(z.string()),
      quorum: z.number().int().optional(),
    })
    .nullable()
    .default(null),
  markFrom: z.number().default(0),
});

export interface RiskState {
  limits: RiskLimits;
  stop: Stop | null;
  markFrom: number;
}

const key = (guildId: string) => `risk:${guildId}`;

export async function getRiskState(store: BotStore, guildId: string): Promise<RiskState> {
  const parsed = StateSchema.safeParse((await store.kv.get(key(guildId))) ?? {});
  return (parsed.success ? parsed.data : StateSchema.parse({})) as RiskState;
}

/** Read-modify-write under the server's lock; `change` returns undefined to leave the state as it was. */
export async function updateRiskState<T>(
  store: BotStore,
  guildId: string,
  change: (s: RiskState) => { next: RiskState; result: T } | undefined,
): Promise<{ state: RiskState; result: T | undefined }> {
  return store.withLock(key(guildId), async () => {
    const now = await getRiskState(store, guildId);
    const done = change(now);
    if (!done) return { state: now, result: undefined };
    await store.kv.set(key(guildId), StateSchema.parse(done.next));
    return { state: done.next, result: done.result };
  });
}

/** A bet record as the risk limits read it. */
export interface RiskBetRow {
  sessionId: string;
  bookie: string;
  account: string | null;
  epk: string;
  eventName: string;
  stakeCents: number;
  state: string;
  pnlCents: number | null;
  /** Decided the fund's at its claim (decision 1950); false: a record from before, judged by the rule by dates. */
  decided: boolean;
  createdAt: number;
  updatedAt: number;
}

/**
 * The fund's bets at risk now (placed or in flight) and those settled since `settledSince`: every record decided
 * as this fund's at its claim, whichever server it was made in, and the server's records from before that was
 * stored (the caller judges those by the rule by dates).
 */
export async function riskBetRows(store: BotStore, guildKey: string, settledSince: number): Promise<RiskBetRow[]> {
  const rows = await store.query<Record<string, unknown>>(
    `SELECT session_id, bookie, epk, stake_cents, state, pnl, payload, fund_decided, created_at, updated_at
     FROM bet_records
     WHERE ((fund_decided = 1 AND fund_key = ?) OR (fund_decided = 0 AND guild_key = ?))
       AND (state IN (${EXPOSED.map((s) => `'${s}'`).join(', ')}) OR (state = 'settled' AND updated_at >= ?))`,
    guildKey,
    guildKey,
    settledSince,
  );
  return rows.map((r) => {
    const p = JSON.parse(String(r.payload)) as SlipPayload;
    return {
      sessionId: String(r.session_id),
      bookie: String(r.bookie),
      account: p.account ?? null,
      epk: String(r.epk ?? p.epk),
      eventName: p.eventName,
      stakeCents: Number(r.stake_cents),
      state: String(r.state),
      pnlCents: r.pnl === null || r.pnl === undefined ? null : centsFromDollars(Number(r.pnl)),
      decided: Number(r.fund_decided) === 1,
      createdAt: Number(r.created_at),
      updatedAt: Number(r.updated_at),
    };
  });
}
