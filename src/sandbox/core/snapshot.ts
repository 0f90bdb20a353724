// Snapshot and restore of the whole sandbox state, so a test can rewind: the clock, sessions, money, ledger,
// jobs, account promos, what tests changed in the world, and the fault settings. Everything else follows from
// the seed. A snapshot is kept in memory by id and can also be taken out as a JSON document.
import { randomUUID } from 'node:crypto';
import type { AccountPromo } from '../accounts/account-promos.js';
import type { AccountsDump } from '../accounts/accounts.js';
import { runLaunch } from '../accounts/launches.js';
import type { Entry } from '../accounts/ledger.js';
import type { WorldDump } from '../world/index.js';
import type { FaultConfig } from './faults.js';
import { parseFaultConfig } from './faults.js';
import type { Envelope, JobDump, SubmitOptions } from './jobs.js';
import { ApiError } from './reply.js';
import type { Sandbox } from './sandbox.js';

export const SNAPSHOT_VERSION = 1;

export interface SnapshotDocument {
  version: typeof SNAPSHOT_VERSION;
  seed: number;
  now: string;
  accounts: AccountsDump;
  ledger: { entries: Entry[]; seq: number };
  jobs: JobDump[];
  promos: { promos: AccountPromo[] | null; idempotent: [string, Envelope][]; betSeq: number };
  world: WorldDump | null;
  faults: FaultConfig;
}

interface Held {
  document: SnapshotDocument;
  works: Map<string, SubmitOptions['work']>;
}

/** Snapshots taken by this process, by id (the pending jobs' work can only be kept here). */
const held = new WeakMap<Sandbox, Map<string, Held>>();
const MAX_HELD = 50;

export function takeSnapshot(sb: Sandbox): { snapshot_id: string; document: SnapshotDocument } {
  const { document, works } = captureState(sb);
  const id = randomUUID();
  const mine = held.get(sb) ?? new Map<string, Held>();
  mine.set(id, { document, works });
  if (mine.size > MAX_HELD) mine.delete(mine.keys().next().value as string);
  held.set(sb, mine);
  return { snapshot_id: id, document };
}

/** The whole state now, not held under an id. */
function captureState(sb: Sandbox): Held {
  const jobs = sb.jobs.dump();
  const document: SnapshotDocument = {
    version: SNAPSHOT_VERSION,
    seed: sb.seed,
    now: sb.clock.now().toISOString(),
    accounts: sb.accounts.dump(),
    ledger: sb.ledger.dump(),
    jobs: jobs.jobs,
    promos: sb.promos.dump(),
    world: sb.world.dump(),
    faults: structuredClone(sb.faults.config),
  };
  return { document, works: jobs.works };
}

export function heldSnapshot(sb: Sandbox, id: string): Held | undefined {
  return held.get(sb)?.get(id);
}

/** Checks a document sent back from outside; 400 or 409 saying what is wrong. */
export function checkDocument(sb: Sandbox, input: unknown): SnapshotDocument {
  const d = input as Partial<SnapshotDocument> | null;
  if (typeof d !== 'object' || d === null || d.version !== SNAPSHOT_VERSION) {
    throw new ApiError(400, {
      detail: `'document' must be a snapshot document of version ${SNAPSHOT_VERSION} from POST /_sandbox/snapshot {"document": true}`,
      field: 'document',
    });
  }
  for (const key of ['now', 'accounts', 'ledger', 'jobs', 'promos', 'faults'] as const) {
    if (d[key] === undefined)
      throw new ApiError(400, { detail: `The snapshot document lacks '${key}'`, field: 'document' });
  }
  const nowMs = typeof d.now === 'string' ? Date.parse(d.now) : Number.NaN;
  const horizonMs = 366 * 86_400_000;
  if (!Number.isFinite(nowMs) || Math.abs(nowMs - sb.clock.startMs) > horizonMs) {
    throw new ApiError(400, {
      detail: `The snapshot document's 'now' must be an ISO 8601 time within a year of the sandbox's start, got ${JSON.stringify(d.now)}`,
      field: 'document',
    });
  }
  if (d.seed !== sb.seed) {
    throw new ApiError(409, {
      detail: `The snapshot was taken with seed ${d.seed}; this sandbox runs seed ${sb.seed}. Start it with --seed ${d.seed}`,
    });
  }
  try {
    parseFaultConfig(d.faults);
  } catch (err) {
    throw new ApiError(400, {
      detail: `The snapshot's faults are invalid: ${(err as Error).message}`,
      field: 'document',
    });
  }
  return d as SnapshotDocument;
}

/**
 * Restores a document sent from outside; if any part of it does not load, the state before is put back and the
 * answer is a 400, so a damaged document never leaves the sandbox half restored.
 */
export function restoreDocument(sb: Sandbox, document: SnapshotDocument): void {
  const before = captureState(sb);
  try {
    restoreSnapshot(sb, document);
  } catch (err) {
    restoreSnapshot(sb, before.document, before.works);
    throw new ApiError(400, {
      detail: `The snapshot document does not load (${(err as Error).message}); send one from POST /_sandbox/snapshot {"document": true}`,
      field: 'document',
    });
  }
}

/** Puts the whole state back as it was; `works` (in-memory snapshots only) lets pending jobs still complete. */
export function restoreSnapshot(
  sb: Sandbox,
  document: SnapshotDocument,
  works?: Map<string, SubmitOptions['work']>,
): void {
  sb.clock.setNow(Date.parse(document.now));
  sb.accounts.load(document.accounts, (session) => runLaunch(sb, session));
  sb.ledger.load(document.ledger);
  const byId = new Map(sb.accounts.all().map((a) => [a.id, a]));
  sb.jobs.load(document.jobs, works, (id) => byId.get(id));
  sb.promos.load(document.promos);
  if (document.world) sb.world.load(document.world);
  sb.faults.set(parseFaultConfig(document.faults));
}
