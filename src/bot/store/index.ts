import type { BotStore, OpenOptions, Tx, TxOptions } from './types.js';

export type { Dialect, Engine } from './dialect.js';
export type { LeaderOptions, LeaderRun, LeaderWork, StopWork } from './leader.js';
export { LATEST_VERSION, MIGRATIONS, type Migration } from './migrations.js';
export {
  type BotStore,
  finishedRowsSweep,
  type OpenOptions,
  type ReceiptJournal,
  type Row,
  StoreClosedError,
  type SweepPart,
  type Tx,
  type TxOptions,
} from './types.js';
export { redactUrl } from './url.js';

/**
 * sqlite://path (the embedded default) or postgres://user:pass@host:port/db (several processes). Each engine's
 * driver is loaded only when a store on it is opened.
 */
export async function openStore(url: string, opts: OpenOptions = {}): Promise<BotStore> {
  const timed = (store: BotStore) => (opts.metrics ? timedStore(store, opts.metrics) : store);
  if (/^postgres(ql)?:\/\//.test(url)) return timed(await (await import('./postgres.js')).openPostgresStore(url, opts));
  if (url.startsWith('sqlite://')) return timed(await (await import('./sqlite.js')).openSqliteStore(url, opts));
  throw new Error('STORE_URL must start with sqlite:// or postgres://');
}

/** The store with each statement and transaction timed into desk_store_statement_seconds. */
function timedStore(store: BotStore, metrics: NonNullable<OpenOptions['metrics']>): BotStore {
  const engine = store.engine;
  const time = async <T>(kind: string, run: () => Promise<T>): Promise<T> => {
    const done = metrics.statementSeconds.time({ engine, kind });
    try {
      return await run();
    } finally {
      done();
    }
  };
  const timedTx = (tx: Tx): Tx => ({
    query: (sql, ...params) => time('statement', () => tx.query(sql, ...params)),
    lock: (key) => tx.lock(key),
  });
  return {
    ...store,
    query: ((sql: string, ...params: unknown[]) =>
      time('statement', () => store.query(sql, ...params))) as BotStore['query'],
    transaction: (<T>(fn: (tx: Tx) => Promise<T>, txOpts?: TxOptions) =>
      time('transaction', () => store.transaction((tx) => fn(timedTx(tx)), txOpts))) as BotStore['transaction'],
  };
}
