// The one gate of a betting interaction, over a real SQLite store: it reads the guild's settings once and
// answers every refusal a member can get before a price check.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PermissionFlagsBits } from 'discord.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BetRecordRepo } from '../../../src/bot/betting/bet-records.js';
import {
  type BetAsker,
  CLOSED_BY_DEFAULT,
  checkBettable,
  stakeOptionCents,
} from '../../../src/bot/betting/handlers/bet-gate.js';
import type { BotConfig } from '../../../src/bot/config/config.js';
import { updateSettings } from '../../../src/bot/settings/guild-settings.js';
import { type BotStore, openStore } from '../../../src/bot/store/index.js';

const NOW = Date.UTC(2026, 0, 15, 12);
const ROLE = 'role-bettors';
let dir: string;
let store: BotStore;
let settingsReads: number;

const gateCtx = () => ({
  store,
  records: new BetRecordRepo(store),
  config: { tunables: { defaultMaxStakePerBetCents: 5000, defaultMaxStakePerDayCents: 20_000 } } as BotConfig,
  now: () => NOW,
});

const asker = (over: Partial<BetAsker> = {}): BetAsker => ({
  guildId: 'g1',
  channelId: 'c1',
  user: { id: 'u1' },
  member: { roles: [ROLE] },
  memberPermissions: { has: () => false },
  ...over,
});

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bet-gate-'));
  store = await openStore(`sqlite://${join(dir, 'bot.sqlite')}`);
  await updateSettings(store, 'g1', (s) => ({
    ...s,
    betRoleId: ROLE,
    maxStakePerBetCents: 10_000,
    maxStakePerDayCents: 3000,
  }));
  settingsReads = 0;
  const get = store.kv.get.bind(store.kv);
  store.kv.get = ((key: string) => {
    if (key === 'guild:g1') settingsReads++;
    return get(key);
  }) as typeof store.kv.get;
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('checkBettable', () => {
  it('reads the settings once for a bet it lets through, and hands on the limits and tiers they set', async () => {
    const gate = await checkBettable(gateCtx(), asker(), 2000);
    expect(settingsReads).toBe(1);
    expect(gate).toMatchObject({
      guildId: 'g1',
      channelId: 'c1',
      userId: 'u1',
      limits: { perBetCents: 10_000, perDayCents: 3000 },
    });
    expect(gate.settings.betRoleId).toBe(ROLE);
    expect(gate.policy.t1Cents).toBe(5000);
  });

  it.each([
    ['a direct message', asker({ guildId: null }), 1000, 'Bets can only be made in a server channel.'],
    ['a member without the bet role', asker({ member: { roles: [] } }), 1000, `<@&${ROLE}> role`],
    ['a stake above the per-bet limit', asker(), 15_000, "above this server's per-bet limit of $100.00"],
    ['a stake past the day', asker(), 4000, "past today's limit of $30.00"],
  ])('refuses %s with what to do, reading the settings at most once', async (_what, who, stakeCents, says) => {
    await expect(checkBettable(gateCtx(), who, stakeCents)).rejects.toThrow(says);
    expect(settingsReads).toBeLessThanOrEqual(1);
  });

  it.each([
    ['a stake that is not whole cents', asker(), 10.005, 'whole cents'],
    ['a negative stake', asker(), -5, 'The stake -5 is negative.'],
    [
      'a bad stake from a member without the bet role (the role first)',
      asker({ member: { roles: [] } }),
      10.005,
      `<@&${ROLE}> role`,
    ],
  ])('refuses %s typed as a number option, reading the settings at most once', async (_what, who, dollars, says) => {
    await expect(stakeOptionCents(gateCtx(), who, dollars)).rejects.toThrow(says);
    expect(settingsReads).toBeLessThanOrEqual(1);
  });

  it('reads a number option stake into whole cents without reading the settings', async () => {
    await expect(stakeOptionCents(gateCtx(), asker(), 19.99)).resolves.toBe(1999);
    expect(settingsReads).toBe(0);
  });

  it('keeps betting closed to all but Manage Server while no bet role is set', async () => {
    await updateSettings(store, 'g1', (s) => ({ ...s, betRoleId: undefined }));
    await expect(checkBettable(gateCtx(), asker(), 1000)).rejects.toThrow(CLOSED_BY_DEFAULT);
    const manager = asker({
      member: { roles: [] },
      memberPermissions: { has: (b) => b === PermissionFlagsBits.ManageGuild },
    });
    await expect(checkBettable(gateCtx(), manager, 1000)).resolves.toMatchObject({ userId: 'u1' });
  });

  it('checks only the member when no stake is given (a button that opens the stake form)', async () => {
    await expect(checkBettable(gateCtx(), asker(), undefined)).resolves.toMatchObject({ channelId: 'c1' });
    expect(settingsReads).toBe(1);
  });
});
