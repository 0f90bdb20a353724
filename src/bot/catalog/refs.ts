import { createHash } from 'node:crypto';
import type { BotStore } from '../store/index.js';

const REF_TTL_MS = 24 * 3600_000;

/**
 * Long values (an epk, a query) cannot ride in a 100-character custom id: the id carries a short
 * content hash and the value lives in the store, so buttons keep working after a restart.
 *
 * A ref behind a component names the server and channel it was made in (`owner`; a null server for a DM): the
 * component guard refuses a click on it from anywhere else (decision 1630). The owner is part of the hash, so
 * the same query in two places gives two refs, each with its own owner.
 */
export async function putRef(store: BotStore, value: unknown, owner?: RefOwner): Promise<string> {
  const json = JSON.stringify(value);
  const hash = createHash('sha256').update(json);
  if (owner) hash.update(`\0${owner.guildId ?? 'dm'}/${owner.channelId ?? ''}`);
  const ref = hash.digest('base64url').slice(0, 16);
  await store.kv.set(`ref:${ref}`, json, REF_TTL_MS);
  if (owner) await store.kv.set(`ref-owner:${ref}`, owner, REF_TTL_MS);
  return ref;
}

export async function getRef<T>(store: BotStore, ref: string): Promise<T | undefined> {
  const json = await store.kv.get<string>(`ref:${ref}`);
  return typeof json === 'string' ? (JSON.parse(json) as T) : undefined;
}

/** Where a ref's component was shown: the interaction's server (null in a DM) and channel. */
export interface RefOwner {
  guildId: string | null;
  channelId: string | null;
}

/** Where an interaction happens, as a ref's owner. */
export const ownerOf = (interaction: { guildId: string | null; channelId: string | null }): RefOwner => ({
  guildId: interaction.guildId,
  channelId: interaction.channelId,
});

/** Where a component's ref was made; undefined for an unknown ref or one made without an owner. */
export async function refOwner(store: BotStore, ref: string): Promise<RefOwner | undefined> {
  const owner = await store.kv.get<RefOwner>(`ref-owner:${ref}`);
  return owner && typeof owner === 'object' && 'guildId' in owner ? owner : undefined;
}
