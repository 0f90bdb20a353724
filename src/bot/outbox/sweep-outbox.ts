import { finishedRowsSweep } from '../store/index.js';
import { OUTBOX_SQL } from './model/outbox-states.js';

/** How long a row nothing more will be sent for is kept: its nonce and message id answer a late duplicate. */
export const OUTBOX_KEEP_MS = 7 * 86_400_000;

/** The outbox's part of the store's sweep (registered by the composition: the store knows no wing's tables). */
export const OUTBOX_SWEEP = finishedRowsSweep('outbox', 'outbox', `state IN ${OUTBOX_SQL.closed}`, OUTBOX_KEEP_MS);
