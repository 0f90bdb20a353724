// The restore check as `npm start` runs it (checkRestoredStore, before the bot starts), against the sandbox gateway:
// a store that was not restored is left alone without asking the gateway; a restored one whose history the gateway
// cannot give stops the start and keeps its marker, so the next start checks again.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRestoredStore } from '../../../src/bot/audit/restore-check.js';
import { parseConfig } from '../../../src/bot/config/config.js';
import { readRestoreMarker, writeRestoreMarker } from '../../../src/bot/store/backup.js';
import { openStore } from '../../../src/bot/store/index.js';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/index.js';
import { API_KEY } from '../../support/harness.js';
import { SandboxControl } from '../../support/sandbox-control.js';

let dir: string;
let sandbox: RunningSandbox;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'restore-check-'));
  sandbox = await startSandbox({ port: 0, control: true, seed: 1, quiet: true });
});
afterAll(async () => {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

const configFor = (storeUrl: string, gatewayUrl: string) =>
  parseConfig({
    GATEWAY_BASE_URL: gatewayUrl,
    GATEWAY_API_KEY: API_KEY,
    DISCORD_TOKEN: 'test-token-not-used',
    DISCORD_APP_ID: '1200000000000000001',
    STORE_URL: storeUrl,
    LOG_LEVEL: 'error',
  });

describe('the restore check at start', () => {
  it('leaves a store with no marker alone, without asking the gateway', async () => {
    const url = `sqlite://${join(dir, 'live.sqlite')}`;
    // Nothing listens on port 9: a call to the gateway would fail the check.
    expect(await checkRestoredStore(configFor(url, 'http://127.0.0.1:9'))).toBeUndefined();
  });

  it('stops the start, keeping the marker, while the history cannot be read; checks once it can', async () => {
    const url = `sqlite://${join(dir, 'restored.sqlite')}`;
    const store = await openStore(url);
    await writeRestoreMarker(store, { from: 'desk.sqlite', takenAt: Date.now() - 60_000, head: null });
    await store.close();
    const control = new SandboxControl(sandbox.url);
    await control.faults({ errorRates: { '/v3/transactions': 1 } });
    const config = configFor(url, sandbox.url);
    await expect(checkRestoredStore(config, { retryMs: 10 })).rejects.toThrow(
      /could not read the whole history of session .*; the desk takes no bets until it can/,
    );
    const after = await openStore(url);
    try {
      expect(await readRestoreMarker(after)).toMatchObject({ from: 'desk.sqlite' });
    } finally {
      await after.close();
    }

    await control.faults({});
    const report = await checkRestoredStore(config);
    expect(report?.verify.ok).toBe(true);
    expect(report?.sessions).toBeGreaterThan(0);
    expect(report?.unknownBets).toEqual([]);
    const done = await openStore(url);
    try {
      expect(await readRestoreMarker(done)).toBeUndefined();
    } finally {
      await done.close();
    }
  }, 30_000);
});
