// What the result tracker keeps of each job it recorded: let go once the job is resolved, whoever resolved it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/bot/config/logger.js';
import type { GatewayPort } from '../../../src/bot/gateway-port.js';
import { JobRepo } from '../../../src/bot/jobs/jobs-repo.js';
import { ResultTracker } from '../../../src/bot/jobs/result-tracker.js';
import { type BotStore, openStore } from '../../../src/bot/store/index.js';
import type { AsyncEnvelope, JobOutcome } from '../../../src/gateway/index.js';

const OUTCOME = { status: 'completed', result: { bet_id: 'b1' } } as unknown as JobOutcome;

describe('the result tracker’s memory of its jobs', () => {
  let dir: string;
  let store: BotStore;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bot-tracker-'));
    store = await openStore(`sqlite://${join(dir, 'desk.sqlite')}`);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A tracker of process `desk-a` whose poller answers each job with what `poll` gives. */
  const trackerPolling = (poll: () => Promise<JobOutcome>) => {
    const gateway = { jobs: { track: poll, resolveFromWebhook: () => {} } } as unknown as GatewayPort;
    return new ResultTracker({
      jobs: new JobRepo(store, 'desk-a'),
      gateway,
      logger: createLogger({ write: () => {} }),
    });
  };
  const recordAndTrack = async (tracker: ResultTracker, correlationId: string) => {
    await tracker.record({
      correlationId,
      kind: 'bet',
      envelope: { correlation_id: correlationId },
      context: { placementId: `p-${correlationId}` },
    });
    tracker.track({ correlation_id: correlationId, status: 'pending' } as unknown as AsyncEnvelope);
  };

  it('lets go of a job another process resolved first, when its own poller answers', async () => {
    let answer!: (o: JobOutcome) => void;
    const tracker = trackerPolling(() => new Promise<JobOutcome>((r) => (answer = r)));
    await recordAndTrack(tracker, 'cid-1');
    expect(tracker.holding).toBe(1);
    // Another process took the job's webhook and resolved it; then this process's poller answers too.
    expect(await new JobRepo(store, 'desk-b').resolve('cid-1', OUTCOME, Date.now())).toBeDefined();
    answer(OUTCOME);
    await tracker.idle();
    expect(tracker.holding).toBe(0);
  });

  it('lets go of a job whose tracking stopped with an error', async () => {
    const tracker = trackerPolling(() => Promise.reject(new Error('the gateway is gone')));
    await recordAndTrack(tracker, 'cid-2');
    await tracker.idle();
    expect(tracker.holding).toBe(0);
  });
});
