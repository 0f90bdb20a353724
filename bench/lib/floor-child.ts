// Starts figure 6's floor receiver (bench/children/floor-receiver.ts) compiled, with npm start's node flags, so the
// floor runs in a process of its own as the desk's bot does.
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { buildOnce, DIST_DIR, startNodeFlags } from './build.js';
import { next } from './child-bot.js';

export interface FloorChild {
  /** Where the gateway delivers: the receiver's address. */
  url: string;
  /** The message a job's receipt edits. */
  message(correlationId: string, messageId: string): void;
  /**
   * Stops it; what went wrong in it (refused signatures, failed inserts or edits), and how often discord.js held an
   * edit for a rate limit (its 50 requests a second, or a route's bucket) and the longest such wait.
   */
  stop(): Promise<FloorStopped>;
}

export interface FloorStopped {
  problems: string[];
  rateLimits: { count: number; longestMs: number };
}

export async function startFloorChild(opts: {
  apiUrl: string;
  token: string;
  channelId: string;
  secret: string;
}): Promise<FloorChild> {
  await buildOnce();
  const child = fork(join(DIST_DIR, 'bench', 'children', 'floor-receiver.js'), [], {
    execArgv: startNodeFlags(),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    const ready = next<{ port: number }>(child, 'ready', 30_000);
    child.send({ type: 'start', ...opts });
    const { port } = await ready;
    return {
      url: `http://127.0.0.1:${port}/`,
      message: (correlationId, messageId) => child.send({ type: 'message', correlationId, messageId }),
      stop: async () => {
        const none = { count: 0, longestMs: 0 };
        if (child.exitCode !== null) return { problems: ['the floor receiver exited early'], rateLimits: none };
        const stopped = next<FloorStopped>(child, 'stopped', 10_000);
        child.send({ type: 'stop' });
        return stopped.catch(() => ({ problems: ['the floor receiver did not stop'], rateLimits: none }));
      },
    };
  } catch (err) {
    child.kill();
    throw err;
  }
}
