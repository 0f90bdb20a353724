import { createHash, randomUUID } from 'node:crypto';
import { formatCentsDecimal } from '../model/money.js';
import type { BotStore, Tx } from '../store/index.js';

/**
 * The syndicate's ledger: one append-only table, each entry carrying the SHA-256 of the previous entry
 * (docs/decisions/0800-hash-chained-ledger.md). Nothing is updated or deleted; a correction is a new entry.
 */
export type LedgerKind =
  | 'proposal'
  | 'approval'
  | 'rejection'
  | 'lapse'
  | 'expiry'
  | 'hold'
  | 'submitted'
  | 'placement'
  | 'unknown'
  | 'settlement'
  | 'release'
  | 'missing'
  | 'limit_change'
  | 'balance_check'
  | 'account_state'
  | 'correction'
  | 'fund_contribution'
  | 'fund_strike'
  | 'fund_issue'
  | 'fund_redemption'
  | 'fund_fee'
  | 'fund_share'
  | 'fund_withdrawal'
  | 'fund_paid'
  | 'fund_account'
  | 'fund_cancel'
  | 'fund_decision';

export interface LedgerInput {
  at: number;
  guildKey: string;
  kind: LedgerKind;
  /** What the entry is about: a placement id, a proposal id, a settings key. */
  ref: string;
  /** The Discord user who acted, or null for the desk itself (a result, a settlement). */
  actor: string | null;
  /** Whole cents: the stake held or placed, the profit or loss settled; null when no money moves. */
  amountCents: number | null;
  data: Record<string, unknown>;
}

export interface LedgerEntry extends LedgerInput {
  seq: number;
  prevHash: string;
  hash: string;
}

/** The columns of an entry before it is chained (a staged row has them too). */
interface InputRow extends Record<string, unknown> {
  at: number;
  guild_key: string;
  kind: LedgerKind;
  ref: string;
  actor: string | null;
  amount_cents: number | null;
  data: string;
}

interface Row extends InputRow {
  seq: number;
  prev_hash: string;
  hash: string;
}

export const GENESIS = '0'.repeat(64);

/** JSON with object keys sorted at every depth: one text per value, so the hash does not depend on key order. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`;
}

/** The hash of an entry: SHA-256 over the canonical JSON of every field but the hash itself. */
export function entryHash(e: Omit<LedgerEntry, 'hash'>): string {
  return createHash('sha256')
    .update(
      canonicalJson({
        seq: e.seq,
        at: e.at,
        guildKey: e.guildKey,
        kind: e.kind,
        ref: e.ref,
        actor: e.actor,
        amountCents: e.amountCents,
        data: e.data,
        prevHash: e.prevHash,
      }),
    )
    .digest('hex');
}

/** An entry's columns from `at` to `data`, in the order both the chain's and the staging table's inserts list them. */
const entryValues = (e: LedgerInput) => [
  e.at,
  e.guildKey,
  e.kind,
  e.ref,
  e.actor,
  e.amountCents,
  canonicalJson(e.data),
];

const toInput = (r: InputRow): LedgerInput => ({
  at: Number(r.at),
  guildKey: r.guild_key,
  kind: r.kind,
  ref: r.ref,
  actor: r.actor,
  amountCents: r.amount_cents === null ? null : Number(r.amount_cents),
  data: JSON.parse(r.data) as Record<string, unknown>,
});

const toEntry = (r: Row): LedgerEntry => ({
  ...toInput(r),
  seq: Number(r.seq),
  prevHash: r.prev_hash,
  hash: r.hash,
});

export type VerifyResult =
  | { ok: true; entries: number; head: string }
  | { ok: false; entries: number; seq: number; reason: string };

const PAGE = 1000;
/** Refs bound in one read (well under either engine's parameter limit). */
const REFS_PER_READ = 500;

/** Entries waiting for the next group append of one store, and whether a group is being written. */
interface AppendQueue {
  waiting: Array<{ input: LedgerInput; resolve: (e: LedgerEntry) => void; reject: (err: unknown) => void }>;
  writing: boolean;
}

/** One queue per store, shared by every Ledger over it, so a process writes one group at a time. */
const queues = new WeakMap<BotStore, AppendQueue>();

/** At most this many entries in one INSERT (10 parameters each: well under either engine's limit). */
const GROUP_MAX = 200;

/** The chain's one lock, across processes: whoever holds it may read the head and chain after it. */
const CHAIN_LOCK = 'ledger:append';

/**
 * Chains entries after the current head and inserts them in one statement, inside the caller's transaction, so
 * they commit with whatever else the transaction writes or not at all. The transaction holds the chain's lock
 * (`ledger:append`) from before the head is read until it ends, so no other writer, in this process or another,
 * can chain on the same head: the chain never forks and has no gap. The sequence number is the primary key, so a
 * writer that somehow read a stale head fails whole instead of forking.
 */
export async function appendInTx(tx: Tx, inputs: readonly LedgerInput[]): Promise<LedgerEntry[]> {
  if (inputs.length === 0) return [];
  await tx.lock(CHAIN_LOCK);
  return insertAfterHead(tx, inputs);
}

/** Chains and inserts entries after the head; the caller's transaction holds the chain's lock. */
async function insertAfterHead(tx: Tx, inputs: readonly LedgerInput[]): Promise<LedgerEntry[]> {
  if (inputs.length === 0) return [];
  const [head] = await tx.query<{ seq: number; hash: string }>(
    'SELECT seq, hash FROM ledger ORDER BY seq DESC LIMIT 1',
  );
  let seq = head ? Number(head.seq) : 0;
  let prevHash = head?.hash ?? GENESIS;
  const entries = inputs.map((input): LedgerEntry => {
    seq += 1;
    const entry = { ...input, seq, prevHash };
    const hash = entryHash(entry);
    prevHash = hash;
    return { ...entry, hash };
  });
  await tx.query(
    `INSERT INTO ledger (seq, at, guild_key, kind, ref, actor, amount_cents, data, prev_hash, hash)
     VALUES ${entries.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
    ...entries.flatMap((e) => [e.seq, ...entryValues(e), e.prevHash, e.hash]),
  );
  return entries;
}

interface StagedRow extends InputRow {
  stage_key: string;
}

/** Orders a process's staged entries: the entry's time, then a count kept by this process. */
const PROCESS_TAG = randomUUID().slice(0, 8);
let stagedCount = 0;
const stageKey = (at: number): string =>
  `${String(Math.max(0, Math.trunc(at))).padStart(16, '0')}-${String(++stagedCount).padStart(12, '0')}-${PROCESS_TAG}`;

/**
 * Writes entries inside the caller's transaction without taking the chain's lock (decision 1763): they commit
 * with the caller's move or not at all, exactly once, and wait in `ledger_staged` until `chainStaged` moves them
 * into the chain. A move's transaction therefore never waits on another process's chain work.
 */
export async function stageInTx(tx: Tx, inputs: readonly LedgerInput[]): Promise<void> {
  if (inputs.length === 0) return;
  await tx.query(
    `INSERT INTO ledger_staged (stage_key, at, guild_key, kind, ref, actor, amount_cents, data)
     VALUES ${inputs.map(() => '(?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
    ...inputs.flatMap((e) => [stageKey(e.at), ...entryValues(e)]),
  );
}

/** The chain run in flight for one store, and the one queued behind it. */
interface ChainRuns {
  current?: Promise<void>;
  next?: Promise<void>;
}
const chainRuns = new WeakMap<BotStore, ChainRuns>();

/**
 * Moves every staged entry into the chain, resolving once the entries staged before the call are chained (by
 * this call or by any other process's). Each group is one short transaction: the chain's lock, the staged rows
 * taken (deleted) in order, the head read, one INSERT; so a staged entry is chained exactly once, and a crash
 * before the commit leaves it staged for the next run. Calls made while a run is in flight share the next run
 * (the one in flight may have read before their entries committed); whichever process holds the lock chains
 * every process's staged entries, so the lock is taken once per group, not once per entry.
 */
export function chainStaged(store: BotStore): Promise<void> {
  let runs = chainRuns.get(store);
  if (!runs) {
    runs = {};
    chainRuns.set(store, runs);
  }
  const r = runs;
  if (!r.current) {
    r.current = chainAll(store).finally(() => {
      r.current = undefined;
    });
    return r.current;
  }
  r.next ??= r.current
    .catch(() => undefined)
    .then(() => {
      r.next = undefined;
      return chainStaged(store);
    });
  return r.next;
}

/**
 * Starts chaining what is staged and does not wait for it (decision 2131): a bet record's move resolves at its
 * COMMIT, so no confirm waits on the chain's one lock behind other processes' groups. A run that fails leaves the
 * entries staged for the next run: the next move's, the next read of the ledger, a stop's, or the next start's.
 */
export function chainSoon(store: BotStore): void {
  if (gathering.has(store)) return;
  const timer = setTimeout(() => {
    gathering.delete(store);
    void chainStaged(store).catch(() => undefined);
  }, CHAIN_GATHER_MS);
  timer.unref();
  gathering.set(store, timer);
}

/** How long the moves of a process gather before one chaining run takes them all (a run per move cost its lock each). */
const CHAIN_GATHER_MS = 20;
const gathering = new WeakMap<BotStore, NodeJS.Timeout>();

async function chainAll(store: BotStore): Promise<void> {
  for (;;) {
    // Read without the lock first: when another process has chained everything, no lock is taken.
    if ((await store.query('SELECT stage_key FROM ledger_staged LIMIT 1')).length === 0) return;
    const chained = await store.transaction(async (tx) => {
      await tx.lock(CHAIN_LOCK);
      const rows = await tx.query<StagedRow>(
        `DELETE FROM ledger_staged WHERE stage_key IN
           (SELECT stage_key FROM ledger_staged ORDER BY stage_key LIMIT ?) RETURNING *`,
        GROUP_MAX,
      );
      rows.sort((a, b) => (a.stage_key < b.stage_key ? -1 : a.stage_key > b.stage_key ? 1 : 0));
      await insertAfterHead(tx, rows.map(toInput));
      return rows.length;
    });
    if (chained < GROUP_MAX) return;
  }
}

/** Every read chains the staged entries first, so it sees every move that has committed. */
export class Ledger {
  constructor(private readonly store: BotStore) {}

  /**
   * Appends one entry after the current head and resolves once it is stored. Entries that arrive while a group
   * is being written wait and go in together as the next group: one lock, one head read and one INSERT for the
   * whole group (group commit), so concurrent confirms do not queue one by one behind the chain's lock.
   */
  append(input: LedgerInput): Promise<LedgerEntry> {
    let q = queues.get(this.store);
    if (!q) {
      q = { waiting: [], writing: false };
      queues.set(this.store, q);
    }
    const queue = q;
    return new Promise<LedgerEntry>((resolve, reject) => {
      queue.waiting.push({ input, resolve, reject });
      if (!queue.writing) void this.#drain(queue);
    });
  }

  async #drain(q: AppendQueue): Promise<void> {
    q.writing = true;
    try {
      while (q.waiting.length > 0) {
        const group = q.waiting.splice(0, GROUP_MAX);
        try {
          const entries = await this.#appendGroup(group.map((w) => w.input));
          for (const [i, w] of group.entries()) w.resolve(entries[i] as LedgerEntry);
        } catch (err) {
          for (const w of group) w.reject(err);
        }
      }
    } finally {
      q.writing = false;
    }
  }

  /** One group in a transaction of its own. */
  #appendGroup(inputs: LedgerInput[]): Promise<LedgerEntry[]> {
    return this.store.transaction((tx) => appendInTx(tx, inputs));
  }

  async head(): Promise<{ seq: number; hash: string } | undefined> {
    await chainStaged(this.store);
    const rows = await this.store.query<{ seq: number; hash: string }>(
      'SELECT seq, hash FROM ledger ORDER BY seq DESC LIMIT 1',
    );
    return rows[0] ? { seq: Number(rows[0].seq), hash: rows[0].hash } : undefined;
  }

  /** Walks the chain from the first entry: the first entry whose link, hash or position is wrong is named. */
  async verify(): Promise<VerifyResult> {
    await chainStaged(this.store);
    let expectedSeq = 1;
    let prev = GENESIS;
    for (;;) {
      const rows = await this.store.query<Row>(
        'SELECT * FROM ledger WHERE seq >= ? ORDER BY seq LIMIT ?',
        expectedSeq,
        PAGE,
      );
      for (const row of rows) {
        const seq = Number(row.seq);
        const broken = (reason: string): VerifyResult => ({ ok: false, entries: seq - 1, seq, reason });
        if (seq !== expectedSeq) {
          return { ok: false, entries: expectedSeq - 1, seq: expectedSeq, reason: `entry ${expectedSeq} is missing` };
        }
        let entry: LedgerEntry;
        try {
          entry = toEntry(row);
        } catch {
          return broken('its data is not JSON');
        }
        if (entry.prevHash !== prev) return broken('it does not point at the hash of the entry before it');
        if (entryHash(entry) !== entry.hash) return broken('its content does not match its hash (it was changed)');
        prev = entry.hash;
        expectedSeq++;
      }
      if (rows.length < PAGE) return { ok: true, entries: expectedSeq - 1, head: prev };
    }
  }

  /** Every entry of these kinds, oldest first (for the daily reconciliation). */
  async allOfKinds(kinds: readonly LedgerKind[]): Promise<LedgerEntry[]> {
    await chainStaged(this.store);
    const rows = await this.store.query<Row>(
      `SELECT * FROM ledger WHERE kind IN (${kinds.map(() => '?').join(', ')}) ORDER BY seq`,
      ...kinds,
    );
    return rows.map(toEntry);
  }

  /** Every entry about these refs (placement ids), oldest first. */
  async forRefs(refs: readonly string[]): Promise<LedgerEntry[]> {
    await chainStaged(this.store);
    const out: LedgerEntry[] = [];
    for (let i = 0; i < refs.length; i += REFS_PER_READ) {
      const chunk = refs.slice(i, i + REFS_PER_READ);
      const rows = await this.store.query<Row>(
        `SELECT * FROM ledger WHERE ref IN (${chunk.map(() => '?').join(', ')}) ORDER BY seq`,
        ...chunk,
      );
      out.push(...rows.map(toEntry));
    }
    return out.sort((x, y) => x.seq - y.seq);
  }

  /** The newest entry of one kind about one ref (a session's last balance check), or undefined. */
  async latest(kind: LedgerKind, ref: string): Promise<LedgerEntry | undefined> {
    await chainStaged(this.store);
    const rows = await this.store.query<Row>(
      'SELECT * FROM ledger WHERE kind = ? AND ref = ? ORDER BY seq DESC LIMIT 1',
      kind,
      ref,
    );
    return rows[0] ? toEntry(rows[0]) : undefined;
  }

  /** Entries with `from <= at < to` (epoch ms) for one guild, oldest first. */
  async range(guildKey: string, from: number, to: number, limit = 50_000): Promise<LedgerEntry[]> {
    await chainStaged(this.store);
    const rows = await this.store.query<Row>(
      'SELECT * FROM ledger WHERE guild_key = ? AND at >= ? AND at < ? ORDER BY seq LIMIT ?',
      guildKey,
      from,
      to,
      limit,
    );
    return rows.map(toEntry);
  }
}

export function verifyText(r: VerifyResult): string {
  if (r.ok)
    return `The ledger is intact: ${r.entries} entries, every hash links to the one before. Head ${r.head.slice(0, 16)}…`;
  return `The ledger is broken at entry ${r.seq}: ${r.reason}. The ${r.entries} entries before it verify. Nothing is repaired automatically; compare entry ${r.seq} with a backup and record a correction.`;
}

const csvCell = (v: unknown): string => {
  const s = v === null || v === undefined ? '' : typeof v === 'string' ? v : String(v);
  // Quote always; a leading = + - @ is prefixed so a spreadsheet does not run it as a formula.
  const safe = /^[=+\-@\t\r]/.test(s) && !/^-?\d+(\.\d+)?$/.test(s) ? `'${s}` : s;
  return `"${safe.replaceAll('"', '""')}"`;
};

const money = (cents: number | null) => (cents === null ? '' : formatCentsDecimal(cents));

/** The entries as CSV (one row each, the data as canonical JSON), for a treasurer's spreadsheet. */
export function ledgerCsv(entries: LedgerEntry[]): string {
  const head = ['seq', 'at', 'kind', 'ref', 'actor', 'amount', 'data', 'prev_hash', 'hash'];
  const lines = entries.map((e) =>
    [
      e.seq,
      new Date(e.at).toISOString(),
      e.kind,
      e.ref,
      e.actor,
      money(e.amountCents),
      canonicalJson(e.data),
      e.prevHash,
      e.hash,
    ]
      .map(csvCell)
      .join(','),
  );
  return `${[head.join(','), ...lines].join('\r\n')}\r\n`;
}
