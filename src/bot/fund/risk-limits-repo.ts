import { z } from 'zod';
import { appendInTx, type LedgerInput } from '../ledger/index.js';
import { BET_STATES, EXPOSED } from '../model/bet-states.js';
import type { SlipPayload } from '../model/slip-rules.js';
import type { BotStore, Tx } from '../store/index.js';
import { sqlList } from './model/fund-states.js';
import type { RiskLimits, Stop } from './model/risk-limits.js';

/**
 * The fund's risk limits, its drawdown stop and the resume votes, per server (decisions 1921 and 1951): one row of
 * `risk_states`, moved only under the server's lock, each move in one transaction with its ledger entries. `markFrom` is
 * when the drawdown's high-water mark last restarted (the last resume; 0: the first strike).
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

/** Where a server's state lived before the table (keyv): read until the server's first move writes its row. */
const legacyKey = (guildId: string) => `risk:${guildId}`;

const parse = (raw: unknown): RiskState => {
  const parsed = StateSchema.safeParse(raw ?? {});
  return (parsed.success ? parsed.data : StateSchema.parse({})) as RiskState;
};

async function stored(q: Pick<Tx, 'query'>, guildId: string): Promise<RiskState | undefined> {
  const [row] = await q.query<{ state: string }>('SELECT state FROM risk_states WHERE guild_key = ?', guildId);
  return row ? parse(JSON.parse(String(row.state))) : undefined;
}

export async function getRiskState(store: BotStore, guildId: string): Promise<RiskState> {
  return (await stored(store, guildId)) ?? parse(await store.kv.get(legacyKey(guildId)));
}

/** What a move of the risk state writes: the next state, what the caller learns, and the ledger entries it carries. */
export interface RiskMove<T> {
  next: RiskState;
  result: T;
  entries: (next: RiskState) => LedgerInput[];
}

/**
 * Moves the risk state under the server's lock, in one transaction with its ledger entries: a crash leaves both or
 * neither. `change` returns undefined to leave the state as it was (nothing written, no entry).
 */
export async function updateRiskState<T>(
  store: BotStore,
  guildId: string,
  change: (s: RiskState) => RiskMove<T> | undefined,
): Promise<{ state: RiskState; result: T | undefined }> {
  const legacy = parse(await store.kv.get(legacyKey(guildId)));
  return store.serialize(legacyKey(guildId), () =>
    store.transaction(async (tx) => {
      const now = (await stored(tx, guildId)) ?? legacy;
      const done = change(now);
      if (!done) return { state: now, result: undefined };
      const next = StateSchema.parse(done.next) as RiskState;
      const entries = done.entries(next);
      await tx.query(
        `INSERT INTO risk_states (guild_key, state, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (guild_key) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at`,
        guildId,
        JSON.stringify(next),
        entries[0]?.at ?? 0,
      );
      await appendInTx(tx, entries);
      return { state: next, result: done.result };
    }),
  );
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
    `SELECT session_id, bookie, epk, stake_cents, state, pnl_cents, payload, fund_decided, created_at, updated_at
     FROM bet_records
     WHERE ((fund_decided = 1 AND fund_key = ?) OR (fund_decided = 0 AND guild_key = ?))
       AND (state IN ${sqlList(EXPOSED)} OR (state IN ${sqlList(BET_STATES.settled)} AND updated_at >= ?))`,
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
      pnlCents: r.pnl_cents === null || r.pnl_cents === undefined ? null : Number(r.pnl_cents),
      decided: Number(r.fund_decided) === 1,
      createdAt: Number(r.created_at),
      updatedAt: Number(r.updated_at),
    };
  });
}
