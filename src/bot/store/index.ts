import { openPostgresStore } from './postgres.js';
import { openSqliteStore } from './sqlite.js';
import type { BotStore, OpenOptions } from './types.js';

export type { Dialect, Engine } from './dialect.js';
export type { LeaderOptions, LeaderRun, LeaderWork, StopWork } from './leader.js';
export { LATEST_VERSION, MIGRATIONS, type Migration } from './migrations.js';
export { redactUrl } from './postgres.js';
export { type BotStore, type OpenOptions, type Row, StoreClosedError } from './types.js';

/** sqlite://path (the embedded default) or postgres://user:pass@host:port/db (several processes). */
export function openStore(url: string, opts: OpenOptions = {}): Promise<BotStore> {
  if (/^postgres(ql)?:\/\//.test(url)) return openPostgresStore(url, opts);
  if (url.startsWith('sqlite://')) return openSqliteStore(url, opts);
  throw new Error('STORE_URL must start with sqlite:// or postgres://');
}
