// Figure 14: how fast the hash-chained ledger takes entries on SQLite on disk and on PostgreSQL (one writer
// process, entries appended by 8 concurrent callers as a busy desk would), and how fast `ledger verify` walks them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ledger } from '../../src/bot/ledger/ledger-repo.js';
import { openStore } from '../../src/bot/store/index.js';
import { createDatabase, startPgCluster } from '../../test/pg/cluster.js';
import { type FigureResult, figure } from '../lib/figure.js';

const ENTRIES = 4_000;
const CALLERS = 8;

/** Appends ENTRIES through CALLERS concurrent callers, then verifies the chain; rates in entries/s. */
async function run(url: string): Promise<{ append: number; verify: number }> {
  const store = await openStore(url);
  try {
    const ledger = new Ledger(store);
    let next = 0;
    const caller = async () => {
      while (next < ENTRIES) {
        const i = next++;
        await ledger.append({
          at: Date.now(),
          guildKey: 'g1',
          kind: i % 2 === 0 ? 'hold' : 'placement',
          ref: `p${i}`,
          actor: `u${i % 7}`,
          amountCents: 1_000 + (i % 9_000),
          data: { slipId: `s${i}`, epk: 'nba/e1', market: 'moneyline', odds: 1.91, stakeCents: 1_000 + (i % 9_000) },
        });
      }
    };
    const t0 = performance.now();
    await Promise.all(Array.from({ length: CALLERS }, caller));
    const appendS = (performance.now() - t0) / 1000;
    const t1 = performance.now();
    const verified = await ledger.verify();
    const verifyS = (performance.now() - t1) / 1000;
    if (!verified.ok || verified.entries !== ENTRIES)
      throw new Error(`the ledger on ${url.split(':')[0]} did not verify`);
    return { append: ENTRIES / appendS, verify: ENTRIES / verifyS };
  } finally {
    await store.close();
  }
}

export async function ledgerAppend(): Promise<FigureResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-ledger-'));
  const cluster = await startPgCluster();
  try {
    const sqlite = await run(`sqlite://${join(dir, 'bot.sqlite')}`);
    const pg = await run(await createDatabase(cluster.adminUrl, 'bench'));
    const pgNote = `PostgreSQL ${cluster.version} on loopback (throwaway cluster, fsync off as for tests)`;
    return [
      figure({
        name: '14 ledger append rate (SQLite, 8 callers)',
        value: sqlite.append,
        unit: 'entries/s',
        baseline: null,
        target: { on: 'value', op: '>=', limit: 200 },
        note: `${ENTRIES} entries on disk (WAL, synchronous=NORMAL)`,
      }),
      figure({
        name: '14 ledger append rate (PostgreSQL, 8 callers)',
        value: pg.append,
        unit: 'entries/s',
        baseline: null,
        target: { on: 'value', op: '>=', limit: 200 },
        note: `${ENTRIES} entries; ${pgNote}; each append takes the ledger's advisory lock`,
      }),
      figure({
        name: '14 ledger verify rate (SQLite)',
        value: sqlite.verify,
        unit: 'entries/s',
        baseline: null,
        target: { on: 'value', op: '>=', limit: 2_000 },
        note: 'hash chain walked from entry 1',
      }),
      figure({
        name: '14 ledger verify rate (PostgreSQL)',
        value: pg.verify,
        unit: 'entries/s',
        baseline: null,
        target: { on: 'value', op: '>=', limit: 2_000 },
        note: `hash chain walked from entry 1; ${pgNote}`,
      }),
    ];
  } finally {
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
