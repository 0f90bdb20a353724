// The store's online backup and its restore on both engines: a backup taken while another connection keeps appending
// to the ledger is one consistent moment (its chain verifies and is the live chain's prefix), carries the "restored
// from" marker once restored, and neither command overwrites anything.
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { Ledger, type LedgerInput } from '../../../src/bot/ledger/ledger-repo.js';
import {
  backupStore,
  backupToFolder,
  markRestored,
  readRestoreMarker,
  restoreStore,
} from '../../../src/bot/store/backup.js';
import { type BotStore, openStore } from '../../../src/bot/store/index.js';
import { createDatabase } from '../../pg/cluster.js';
import { ENGINES, freshStoreUrl } from '../../pg/engines.js';

/** One hold of i cents for member u1. */
const entry = (i: number): LedgerInput => ({
  at: i,
  guildKey: 'g',
  kind: 'hold',
  ref: `r${i}`,
  actor: 'u1',
  amountCents: i,
  data: {},
});

describe.each(ENGINES)('an online backup on %s', (engine) => {
  let dir: string;
  let live: { url: string; cleanup: () => void };
  let store: BotStore;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'desk-backup-'));
    live = await freshStoreUrl(engine, { migrated: true });
    store = await openStore(live.url);
  });
  afterEach(async () => {
    await store.close();
    live.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Where a restore goes: an absent SQLite file, or a new empty database. */
  const target = async () =>
    engine === 'sqlite' ? `sqlite://${join(dir, 'restored.sqlite')}` : createDatabase(inject('pgAdminUrl'), 'restored');

  it('is one moment of a ledger being written: its chain verifies and is a prefix of the live chain', async () => {
    const ledger = new Ledger(store);
    for (let i = 0; i < 20; i++) await ledger.append(entry(i));
    // Appends keep coming, one group after another, while the backup runs.
    let writing = true;
    let written = 20;
    const writer = (async () => {
      while (writing) await Promise.all([0, 1, 2].map(() => ledger.append(entry(written++))));
    })();
    const file = join(dir, engine === 'sqlite' ? 'backup.sqlite' : 'backup.dump');
    await new Promise((r) => setTimeout(r, 50));
    const summary = await backupStore(live.url, file);
    await new Promise((r) => setTimeout(r, 50));
    writing = false;
    await writer;
    expect(summary.head).not.toBeNull();
    const liveVerify = await ledger.verify();
    expect(liveVerify.ok && liveVerify.entries).toBeGreaterThan(summary.head?.seq ?? 0);

    const url = await target();
    const restoredSummary = await restoreStore(file, url);
    expect(restoredSummary.head).toEqual(summary.head);
    const restored = await openStore(url);
    try {
      const verify = await new Ledger(restored).verify();
      expect(verify).toEqual({ ok: true, entries: summary.head?.seq, head: summary.head?.hash });
      // The live chain at the backup's head is the backup's: the same entry, the same hash.
      const [same] = await store.query<{ hash: string }>('SELECT hash FROM ledger WHERE seq = ?', summary.head?.seq);
      expect(same?.hash).toBe(summary.head?.hash);
      expect(await readRestoreMarker(restored)).toMatchObject({ from: file.split('/').pop(), head: summary.head });
      // The live store carries no marker: only a restored one is checked at start.
      expect(await readRestoreMarker(store)).toBeUndefined();
    } finally {
      await restored.close();
    }
  });

  it('keeps the newest n of the backups it writes into a folder, by their time, and nothing else of it', async () => {
    const folder = join(dir, 'scheduled');
    let t = Date.UTC(2026, 10, 28, 3, 0, 0, 0);
    const names: string[] = [];
    for (let i = 0; i < 4; i++) {
      const done = await backupToFolder(live.url, folder, 2, () => t);
      names.push(done.file.split('/').pop() as string);
      expect(done.removed.map((f) => f.split('/').pop())).toEqual(i < 2 ? [] : [names[i - 2]]);
      if (i === 0) writeFileSync(join(folder, 'notes.txt'), 'the operator keeps this');
      t += 1; // a millisecond apart: the name still tells them apart
    }
    const ext = engine === 'sqlite' ? 'sqlite' : 'dump';
    expect(names[0]).toBe(`desk-20261128T030000000Z.${ext}`);
    expect(readdirSync(folder).sort()).toEqual([...names.slice(2), 'notes.txt'].sort());
    await expect(backupToFolder(live.url, folder, 0)).rejects.toThrow(/--keep takes a whole number, 1 or more/);
  });

  it('marks a store restored by hand, so the desk checks it at its next start', async () => {
    await new Ledger(store).append(entry(1));
    expect(await readRestoreMarker(store)).toBeUndefined();
    const summary = await markRestored(live.url, 'desk-by-hand.dump');
    expect(summary.head?.seq).toBe(1);
    expect(await readRestoreMarker(store)).toEqual({ from: 'desk-by-hand.dump', takenAt: null, head: summary.head });
  });

  it('refuses to overwrite: an existing backup file, a restore target that holds a store', async () => {
    const file = join(dir, engine === 'sqlite' ? 'backup.sqlite' : 'backup.dump');
    await backupStore(live.url, file);
    await expect(backupStore(live.url, file)).rejects.toThrow(/exists already: name a new file/);
    const url = await target();
    await restoreStore(file, url);
    await expect(restoreStore(file, url)).rejects.toThrow(
      engine === 'sqlite' ? /exists: stop the desk and move the old store away/ : /is not empty: restore into a new/,
    );
    expect(existsSync(join(dir, 'nothing.sqlite'))).toBe(false);
    await expect(restoreStore(join(dir, 'nothing.sqlite'), url)).rejects.toThrow(/no backup file at/);
  });
});
