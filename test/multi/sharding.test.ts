// `npm start` with SHARD_COUNT=2: discord.js's ShardingManager runs each shard in its own process on one
// PostgreSQL store; the local Discord routes the guild's interactions to the shard that owns it.
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase } from '../pg/cluster.js';
import { setBetRole } from '../support/bet-role.js';
import { betSlip, messageMatching, newTrail, pickEvent, press } from '../support/flows.js';
import { type Desk, startDesk } from '../support/harness.js';
import { textOf } from '../support/messages.js';
import { until } from '../support/wait.js';

const MAIN = fileURLToPath(new URL('../../src/bot/main.ts', import.meta.url));
const TSX_LOADER = pathToFileURL(join(dirname(createRequire(import.meta.url).resolve('tsx/cli')), 'loader.mjs')).href;

describe('the bot in two shards under the ShardingManager', () => {
  let desk: Desk;
  let manager: ChildProcess;
  const out: string[] = [];

  beforeAll(async () => {
    desk = await startDesk({
      webhooks: false,
      inProcessBot: false,
      discordShards: 2,
      env: { STORE_URL: await createDatabase(inject('pgAdminUrl'), 'shards'), SHARD_COUNT: 'auto', WEBHOOK_PORT: '0' },
    });
    manager = spawn(process.execPath, ['--import', TSX_LOADER, MAIN], {
      env: { ...process.env, ...desk.env, BOT_PROCESS_ID: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    manager.stdout?.on('data', (c: Buffer) => out.push(c.toString()));
    manager.stderr?.on('data', (c: Buffer) => out.push(c.toString()));
    await until('both shards on the gateway', () => desk.ld.connectedShards().length === 2, {
      timeoutMs: 60_000,
    });
    await until('commands', () => desk.ld.commands().length > 0, { timeoutMs: 20_000 });
    await until('the manager to report its shards', () => /with shards/.test(out.join('')), {
      timeoutMs: 60_000,
    });
    await setBetRole(desk.ld); // betting is closed until an admin names the bet role
  }, 120_000);

  afterAll(async () => {
    if (manager && manager.exitCode === null) {
      const exited = new Promise((r) => manager.once('exit', r));
      manager.kill('SIGTERM');
      await exited;
    }
    await desk?.close();
  });

  it('asks /gateway/bot for the count (SHARD_COUNT=auto) and connects shards 0 and 1 of 2 from two processes', () => {
    expect(desk.ld.connectedShards()).toEqual([
      [0, 2],
      [1, 2],
    ]);
    expect(out.join('')).toMatch(/running on Discord with shards 0, 1 of 2/);
    const pids = new Set([...out.join('').matchAll(/Shard \d of 2: starting \(pid (\d+)\)/g)].map((m) => m[1]));
    expect(pids.size).toBe(2);
  });

  it('places a bet end to end through the shard that owns the guild', async () => {
    const trail = newTrail();
    const { bettor } = desk.ld.users;
    const sel = await pickEvent(desk, 'nba', 0);
    const { slip } = await betSlip(desk, trail, { user: bettor, sel, stake: 7 });
    await press(desk, trail, bettor, slip, /^Confirm$/);
    expect(textOf(await messageMatching(desk, slip, /Bet placed ✅|Bet not placed/, 30_000))).toMatch(/Bet placed ✅/);
    const bets = (await desk.control.state()).bets.filter((b) => b.bet.stake === 7);
    expect(bets).toHaveLength(1);
  }, 90_000);

  it('stops both shard processes on SIGTERM', async () => {
    const exited = new Promise<number | null>((r) => manager.once('exit', (code) => r(code)));
    manager.kill('SIGTERM');
    expect(await exited).toBe(0);
    await until('the shards to leave the gateway', () => desk.ld.connectedShards().length === 0, {
      timeoutMs: 20_000,
    });
  }, 30_000);
});
