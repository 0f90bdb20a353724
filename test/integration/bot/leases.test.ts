import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobRepo } from '../../../src/bot/jobs/jobs-repo.js';
import { openStore } from '../../../src/bot/store/index.js';
import { type Desk, startDesk } from '../../support/bot-desk.js';

const job = (correlationId: string) => ({
  correlationId,
  kind: 'bet',
  envelope: { correlation_id: correlationId },
  context: {},
});

describe('job leases', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'bot-leases-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('lets another process take over at once after the owner released its leases', async () => {
    const store = await openStore(`sqlite://${join(dir, 'a.sqlite')}`);
    try {
      const now = Date.now();
      const a = new JobRepo(store, 'desk-a');
      const b = new JobRepo(store, 'desk-b');
      await a.insert(job('cid-1'), now);
      expect(await b.takeOverPending(now)).toHaveLength(0);
      await a.releaseLeases();
      const taken = await b.takeOverPending(now);
      expect(taken.map((j) => j.correlationId)).toEqual(['cid-1']);
    } finally {
      await store.close();
    }
  });
});

describe('a stopped bot', () => {
  let desk: Desk;
  beforeAll(async () => {
    desk = await startDesk({ env: { BOT_PROCESS_ID: 'desk-under-test' } });
  });
  afterAll(async () => {
    await desk?.close();
  });

  it('releases its pending jobs so another process resumes them without waiting for the lease', async () => {
    await desk.bot.context.jobs.insert(job('cid-stop'), desk.now());
    await desk.bot.stop();
    const store = await openStore(desk.env.STORE_URL as string);
    try {
      const rows = await store.query<{ owner: string }>('SELECT owner FROM jobs WHERE correlation_id = ?', 'cid-stop');
      expect(rows[0]?.owner).toBe('desk-under-test');
      const taken = await new JobRepo(store, 'desk-other').takeOverPending(desk.now());
      expect(taken.map((j) => j.correlationId)).toEqual(['cid-stop']);
    } finally {
      await store.close();
    }
  });
});
