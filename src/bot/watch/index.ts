export type { WatchDeps } from './handlers/deps.js';
