import { ShardingManager } from 'discord.js';
import type { BotConfig } from '../config/config.js';

/** Discord's advice for this token: how many shards, and how many may IDENTIFY at once. */
async function gatewayBot(config: BotConfig): Promise<{ shards: number; maxConcurrency: number }> {
  // DISCORD_API_URL is the base discord.js adds /v10 to.
  const api = config.discord.apiUrl ?? 'https://discord.com/api';
  const res = await fetch(`${api}/v10/gateway/bot`, {
    headers: { authorization: `Bot ${config.discord.token?.reveal() ?? ''}` },
  });
  if (!res.ok) throw new Error(`GET /gateway/bot answered ${res.status}; check DISCORD_TOKEN`);
  const body = (await res.json()) as { shards?: number; session_start_limit?: { max_concurrency?: number } };
  return { shards: body.shards ?? 1, maxConcurrency: body.session_start_limit?.max_concurrency ?? 1 };
}

export interface RunningShards {
  total: number;
  ids: number[];
  stop(): Promise<void>;
}

/**
 * Runs this process as discord.js's ShardingManager: one child process per shard (the same entry file,
 * SHARDS/SHARD_COUNT set), each a whole bot on the shared store; a shard that dies is started again.
 * SHARDS limits which shards this machine runs, so several machines can split one token's shards.
 */
export async function startShardManager(
  config: BotConfig,
  entryFile: string,
  print: (line: string) => void,
): Promise<RunningShards> {
  const advice = await gatewayBot(config);
  const total = config.sharding.count === 'auto' ? advice.shards : config.sharding.count;
  const ids = config.sharding.ids ?? Array.from({ length: total }, (_, i) => i);
  const manager = new ShardingManager(entryFile, {
    totalShards: total,
    shardList: ids,
    token: config.discord.token?.reveal(),
    mode: 'process',
    respawn: true,
    // The shard processes run the same code the same way (tsx's loader when started through it).
    execArgv: process.execArgv,
  });
  manager.on('shardCreate', (shard) =>
    shard.on('spawn', (child) =>
      print(`Shard ${shard.id} of ${total}: starting (pid ${'pid' in child ? child.pid : '-'}).`),
    ),
  );
  // Discord lets max_concurrency shards IDENTIFY per 5 s.
  await manager.spawn({ amount: total, delay: advice.maxConcurrency >= ids.length ? 0 : 5500, timeout: 60_000 });
  return {
    total,
    ids,
    async stop() {
      await Promise.all(
        [...manager.shards.values()].map(
          (shard) =>
            new Promise<void>((resolve) => {
              const child = shard.process;
              if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
              child.once('exit', () => resolve());
              shard.kill(); // SIGTERM: the shard's bot stops cleanly and releases its leases
            }),
        ),
      );
    },
  };
}
