import type { BotStore, OpenOptions } from './types.js';

export type { Dialect, Engine } from './dialect.js';
export type { LeaderOptions, LeaderRun, LeaderWork, StopWork } from './leader.js';
export { LATEST_VERSION, MIGRATIONS, type Migration } from './migrations.js';
export { type BotStore, type OpenOptions, type Row, StoreClosedError, type Tx } from './types.js';
export { redactUrl } from './url.js';

/**
 * sqlite://path (the embedded default) or postgres://user:pass@host:port/db (several processes). Each engine's
 * driver is loaded only when a store on it is opened.
 */
export async function openStore(url: string, opts: OpenOptions = {}): Promise<BotStore> {
  if (/^postgres(ql)?:\/\//.test(url)) return (await import('./postgres.js')).openPostgresStore(url, opts);
  if (url.startsWith('sqlite://')) return (await import('./sqlite.js')).openSqliteStore(url, opts);
  throw new Error('STORE_URL must start with sqlite:// or postgres://');
}
