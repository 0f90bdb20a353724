// Store tests run once per engine: SQLite on a temp file and PostgreSQL on a fresh database of the test cluster.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { openStore } from '../../src/bot/store/index.js';
import { createDatabase } from './cluster.js';

export const ENGINES = ['sqlite', 'postgres'] as const;
export type EngineName = (typeof ENGINES)[number];

let template: Promise<string> | undefined;

/** A database migrated to the latest version, made once per test file: copying it is faster than migrating. */
function migratedTemplate(adminUrl: string): Promise<string> {
  template ??= (async () => {
    const url = await createDatabase(adminUrl, 'template');
    const store = await openStore(url);
    await store.close();
    return url.slice(url.lastIndexOf('/') + 1);
  })();
  return template;
}

/**
 * A fresh store URL for the engine, and how to clean up after it: an empty store, or with `migrated` on
 * PostgreSQL a copy of a migrated database (what opening the empty one would make, without the migrations' time).
 */
export async function freshStoreUrl(
  engine: EngineName,
  opts: { migrated?: boolean } = {},
): Promise<{ url: string; cleanup: () => void }> {
  if (engine === 'postgres') {
    const admin = inject('pgAdminUrl');
    const template = opts.migrated ? await migratedTemplate(admin) : undefined;
    return { url: await createDatabase(admin, 't', template), cleanup: () => {} };
  }
  const dir = mkdtempSync(join(tmpdir(), 'bot-store-'));
  return { url: `sqlite://${join(dir, 'bot.sqlite')}`, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
