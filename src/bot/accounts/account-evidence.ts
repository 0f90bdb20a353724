import { appendInTx } from '../ledger/index.js';
import type { BotStore, Tx } from '../store/index.js';
import type { Evidence, EvidenceKind, HealthState, RefusalClass, SessionHealth } from './model/account-health.js';

/**
 * Account evidence and each session's announced health state (migration 6). Evidence is written once per key
 * (`bet:<placement id>`, `status:<session>:<at>`…), so handling the same answer twice records it once. A state
 * moves with `UPDATE … WHERE changes = <the count read>` and its ledger entry in one transaction, so two
 * processes that saw the same change move it once.
 *
 * A session's evidence is read for every slip and every bet result (its health). The repo keeps what it last read
 * of each session and reads it again only when the session's count of rows has changed (decision 2134): evidence is
 * never updated or deleted, so an unchanged count is an unchanged set. What this repo records itself is added to
 * what it keeps when the count grew by just that.
 */

export interface EvidenceInput extends Evidence {
  /** Once-only key of this piece of evidence. */
  key: string;
  guildKey?: string | null;
}

interface EvidenceRow extends Record<string, unknown> {
  evidence_key: string;
  session_id: string;
  bookie: string;
  kind: EvidenceKind;
  sport: string | null;
  market: string | null;
  market_label: string | null;
  asked_cents: number | null;
  accepted_cents: number | null;
  error_class: RefusalClass | null;
  error_text: string | null;
  status: string | null;
  at: number;
}

export interface AccountStateRow {
  sessionId: string;
  bookie: string;
  state: HealthState;
  reasons: string[];
  changes: number;
  changedAt: number;
}

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

function toEvidence(r: EvidenceRow): Evidence {
  return {
    sessionId: r.session_id,
    bookie: r.bookie,
    kind: r.kind,
    at: Number(r.at),
    sport: r.sport,
    market: r.market,
    marketLabel: r.market_label,
    askedCents: num(r.asked_cents),
    acceptedCents: num(r.accepted_cents),
    errorClass: r.error_class,
    errorText: r.error_text,
    status: r.status,
  };
}

/** Evidence as reading its row back gives it (absent fields null). */
function asRead(e: EvidenceInput): Evidence {
  return {
    sessionId: e.sessionId,
    bookie: e.bookie,
    kind: e.kind,
    at: e.at,
    sport: e.sport ?? null,
    market: e.market ?? null,
    marketLabel: e.marketLabel ?? null,
    askedCents: e.askedCents ?? null,
    acceptedCents: e.acceptedCents ?? null,
    errorClass: e.errorClass ?? null,
    errorText: e.errorText ?? null,
    status: e.status ?? null,
  };
}

async function insertEvidence(q: Pick<Tx, 'query'>, e: EvidenceInput): Promise<boolean> {
  const rows = await q.query(
    `INSERT INTO account_evidence (evidence_key, session_id, bookie, guild_key, kind, sport, market, market_label,
       asked_cents, accepted_cents, error_class, error_text, status, at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (evidence_key) DO NOTHING RETURNING evidence_key`,
    e.key,
    e.sessionId,
    e.bookie,
    e.guildKey ?? null,
    e.kind,
    e.sport ?? null,
    e.market ?? null,
    e.marketLabel ?? null,
    e.askedCents ?? null,
    e.acceptedCents ?? null,
    e.errorClass ?? null,
    e.errorText ?? null,
    e.status ?? null,
    e.at,
  );
  return rows.length > 0;
}

/**
 * One session's evidence as last read: its rows since `since`, in the store's order, and its count of rows then;
 * `own`: what this repo recorded of the session since, to add when the count says no one else wrote meanwhile.
 */
interface Kept {
  count: number;
  since: number;
  rows: { key: string; evidence: Evidence }[];
  own: EvidenceInput[];
}

/** Sessions kept at most; past it the repo forgets them all and reads again. */
const KEPT_SESSIONS = 512;

const readSql = (filter: string) => `SELECT * FROM account_evidence WHERE at >= ?${filter} ORDER BY at, evidence_key`;

export class AccountEvidenceRepo {
  readonly #kept = new Map<string, Kept>();

  constructor(private readonly store: BotStore) {}

  /** Records one piece of evidence; false when its key was recorded before. */
  async record(e: EvidenceInput): Promise<boolean> {
    const recorded = await insertEvidence(this.store, e);
    if (recorded) this.#kept.get(e.sessionId)?.own.push(e);
    return recorded;
  }

  /**
   * Whether the kept rows are the session's rows now (its count `count`): they are when the count grew by just what
   * this repo recorded since, which is then added in the place the store orders it. Not when another writer added
   * rows, or an own row came at the same moment as a kept one (the store's order among them decides).
   */
  #addOwn(kept: Kept, count: number): boolean {
    const keys = new Set(kept.rows.map((r) => r.key));
    const own = [...new Map(kept.own.filter((e) => !keys.has(e.key)).map((e) => [e.key, e])).values()];
    kept.own = [];
    if (count !== kept.count + own.length) return false;
    for (const e of own) {
      if (kept.rows.some((r) => r.evidence.at === e.at) || own.some((o) => o !== e && o.at === e.at)) return false;
      if (e.at < kept.since) continue;
      const at = kept.rows.findIndex((r) => r.evidence.at > e.at);
      kept.rows.splice(at === -1 ? kept.rows.length : at, 0, { key: e.key, evidence: asRead(e) });
    }
    kept.count = count;
    return true;
  }

  /** Each session's count of evidence rows (absent: none). */
  async #counts(sessionIds: readonly string[]): Promise<Map<string, number>> {
    const rows = await this.store.query<{ session_id: string; n: number | string }>(
      `SELECT session_id, COUNT(*) AS n FROM account_evidence WHERE session_id IN (${sessionIds.map(() => '?').join(', ')})
       GROUP BY session_id`,
      ...sessionIds,
    );
    return new Map(rows.map((r) => [r.session_id, Number(r.n)]));
  }

  /** Records many pieces in one transaction (a restart's backlog), each once per key. */
  async recordAll(all: readonly EvidenceInput[]): Promise<void> {
    if (all.length === 0) return;
    await this.store.transaction(async (tx) => {
      for (const e of all) await insertEvidence(tx, e);
    });
  }

  /** Of these keys, the ones recorded (a few hundred per statement, inside either engine's parameter limit). */
  async keysIn(keys: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let i = 0; i < keys.length; i += 500) {
      const chunk = keys.slice(i, i + 500);
      const rows = await this.store.query<{ evidence_key: string }>(
        `SELECT evidence_key FROM account_evidence WHERE evidence_key IN (${chunk.map(() => '?').join(', ')})`,
        ...chunk,
      );
      for (const r of rows) found.add(r.evidence_key);
    }
    return found;
  }

  /**
   * Evidence since `since` (every session, or the ones named), oldest first. The sessions named are answered from
   * what was kept of them when their counts are unchanged (one count statement); each session's rows keep the
   * store's order, and rows of different sessions at the same moment may come in another order than the store's.
   */
  async since(since: number, sessionIds?: readonly string[]): Promise<Evidence[]> {
    if (!sessionIds?.length) return (await this.store.query<EvidenceRow>(readSql(''), since)).map(toEvidence);
    const ids = [...new Set(sessionIds)];
    // The counts first: rows read after them hold at least what the counts counted, never less.
    const counts = await this.#counts(ids);
    const stale = ids.filter((id) => {
      const kept = this.#kept.get(id);
      return !kept || kept.since > since || !this.#addOwn(kept, counts.get(id) ?? 0);
    });
    if (stale.length > 0) {
      const rows = await this.store.query<EvidenceRow>(
        readSql(` AND session_id IN (${stale.map(() => '?').join(', ')})`),
        since,
        ...stale,
      );
      if (this.#kept.size + stale.length > KEPT_SESSIONS) this.#kept.clear();
      for (const id of stale) this.#kept.set(id, { count: counts.get(id) ?? 0, since, rows: [], own: [] });
      for (const r of rows) this.#kept.get(r.session_id)?.rows.push({ key: r.evidence_key, evidence: toEvidence(r) });
    }
    const out: Evidence[] = [];
    for (const id of ids) {
      const kept = this.#kept.get(id);
      if (!kept) continue;
      // What fell out of the window is let go.
      const first = kept.rows.findIndex((r) => r.evidence.at >= since);
      if (first !== 0) kept.rows.splice(0, first === -1 ? kept.rows.length : first);
      kept.since = Math.max(kept.since, since);
      for (const r of kept.rows) out.push(r.evidence);
    }
    // A stable sort: each session's rows at the same moment keep the store's order.
    return ids.length === 1 ? out : out.sort((a, b) => a.at - b.at);
  }

  /** The refusals of a sport as a whole (`not_offered` evidence) since a time, at every book. */
  async notOffered(sport: string, since: number): Promise<Evidence[]> {
    const rows = await this.store.query<EvidenceRow>(
      `SELECT * FROM account_evidence WHERE kind = 'not_offered' AND sport = ? AND at >= ? ORDER BY at, evidence_key`,
      sport,
      since,
    );
    return rows.map(toEvidence);
  }

  /** The latest status each session was seen in (status evidence), by session id. */
  async lastStatuses(): Promise<Map<string, string>> {
    const rows = await this.store.query<{ session_id: string; status: string }>(
      `SELECT session_id, status FROM account_evidence WHERE kind = 'status' ORDER BY at, evidence_key`,
    );
    return new Map(rows.map((r) => [r.session_id, r.status]));
  }

  /** One session's state row: its own row by key (a bet's result asks it; the whole table grows with the sessions). */
  async state(sessionId: string): Promise<AccountStateRow | undefined> {
    const rows = await this.store.query<Record<string, unknown>>(
      'SELECT * FROM account_states WHERE session_id = ?',
      sessionId,
    );
    const r = rows[0];
    if (!r) return undefined;
    return {
      sessionId: String(r.session_id),
      bookie: String(r.bookie),
      state: r.state as HealthState,
      reasons: JSON.parse(String(r.reasons)) as string[],
      changes: Number(r.changes),
      changedAt: Number(r.changed_at),
    };
  }

  /**
   * Moves the session's state from the row read (`changes` = its count, 0 when there was none) to `h`, with
   * its ledger entry (for `guildKey`) in the same transaction. False when another move got there first.
   */
  async moveState(
    h: SessionHealth,
    from: AccountStateRow | undefined,
    at: number,
    guildKey: string | null,
  ): Promise<boolean> {
    const changes = (from?.changes ?? 0) + 1;
    return this.store.transaction(async (tx) => {
      const rows = from
        ? await tx.query(
            `UPDATE account_states SET state = ?, reasons = ?, changes = ?, changed_at = ?
             WHERE session_id = ? AND changes = ? RETURNING session_id`,
            h.state,
            JSON.stringify(h.reasons),
            changes,
            at,
            h.sessionId,
            from.changes,
          )
        : await tx.query(
            `INSERT INTO account_states (session_id, bookie, state, reasons, changes, changed_at)
             VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (session_id) DO NOTHING RETURNING session_id`,
            h.sessionId,
            h.bookie,
            h.state,
            JSON.stringify(h.reasons),
            changes,
            at,
          );
      if (rows.length === 0) return false;
      if (guildKey !== null) {
        await appendInTx(tx, [
          {
            at,
            guildKey,
            kind: 'account_state',
            ref: h.sessionId,
            actor: null,
            amountCents: null,
            data: {
              sessionId: h.sessionId,
              bookie: h.bookie,
              from: from?.state ?? null,
              to: h.state,
              reasons: h.reasons,
              caps: h.caps.map((c) => ({ sport: c.sport, market: c.market, capCents: c.capCents, trend: c.trend })),
              change: changes,
            },
          },
        ]);
      }
      return true;
    });
  }
}

/** Balance reads as evidence (the ledger's balance checks): each session that answered, once per read. */
export async function recordBalanceEvidence(
  store: BotStore,
  checks: ReadonlyArray<{ sessionId: string; retrievedAt: number }>,
  now: number,
): Promise<void> {
  const repo = new AccountEvidenceRepo(store);
  for (const c of checks) {
    await repo.record({
      key: `balance:${c.sessionId}:${c.retrievedAt}`,
      sessionId: c.sessionId,
      bookie: '',
      kind: 'balance',
      at: now,
      status: 'ok',
    });
  }
}
