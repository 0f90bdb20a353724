import { JOB_STATES, sqlStates } from '../model/job-states.js';
import { finishedRowsSweep } from '../store/index.js';

/** How long a posted job is kept: its outcome answers a late duplicate webhook, and an operator's question. */
export const JOB_KEEP_MS = 7 * 86_400_000;

/** The jobs wing's part of the store's sweep (registered by the composition: the store knows no wing's tables). */
export const JOBS_SWEEP = finishedRowsSweep('jobs', 'jobs', `state IN ${sqlStates(JOB_STATES.posted)}`, JOB_KEEP_MS);
