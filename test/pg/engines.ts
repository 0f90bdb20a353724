// Store tests run once per engine: SQLite on a temp file and PostgreSQL on a fresh database of the test cluster.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { createDatabase } from './cluster.js';

export const ENGINES = ['sqlite', 'postgres'] as const;
export type EngineName = (typeof ENGINES)[number];

/** A fresh, empty store URL for the engine, and how to clean up after it. */
export async function freshStoreUrl(engine: EngineName): Promise<{ url: string; cleanup: () => void }> {
  if (engine === 'postgres') return { url: await createDatabase(inject('pgAdminUrl')), cleanup: () => {} };
  const dir = mkdtempSync(join(tmpdir(), 'bot-store-'));
  return { url: `sqlite://${join(dir, 'bot.sqlite')}`, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
