import { createHash } from 'node:crypto';
import type { BotStore } from '../store/index.js';

const REF_TTL_MS = 24 * 3600_000;

/**
 * Long values (an epk, a query) cannot ride in a 100-character custom id: the id carries a short
 * content hash and the value lives in the store, so buttons keep working after a restart.
 */
export async function putRef(store: BotStore, value: unknown): Promise<string> {
  const json = JSON.stringify(value);
  const ref = createHash('sha256').update(json).digest('base64url').slice(0, 16);
  await store.kv.set(`ref:${ref}`, json, REF_TTL_MS);
  return ref;
}

export async function getRef<T>(store: BotStore, ref: string): Promise<T | undefined> {
  const json = await store.kv.get<string>(`ref:${ref}`);
  return typeof json === 'string' ? (JSON.parse(json) as T) : undefined;
}
