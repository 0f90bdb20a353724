// Starts a bot from bench/children/ compiled to dist/ (as `npm start` runs the bot: plain node, no tsx),
// under node --expose-gc, and talks to it over IPC.
import { type ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import { PartMissingError } from './bot-loader.js';
import { buildOnce, DIST_DIR, startNodeFlags } from './build.js';

export interface ChildBot {
  pid: number;
  rss(): Promise<{ rss: number; heapUsed: number }>;
  /** The real bot's event loop since its start: ms active and idle (the bare bot does not answer). */
  loop(): Promise<{ active: number; idle: number }>;
  stop(): Promise<void>;
}

export function next<T>(child: ChildProcess, type: string, timeoutMs: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`the bot child process sent no "${type}" within ${timeoutMs} ms`));
    }, timeoutMs);
    const onMessage = (msg: { type: string; message?: string }) => {
      if (msg.type === 'error') {
        cleanup();
        const text = msg.message ?? 'unknown error';
        reject(text.includes('not there yet') ? new PartMissingError(text) : new Error(`bot child: ${text}`));
      } else if (msg.type === type) {
        cleanup();
        resolve(msg as T);
      }
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`the bot child process exited (code ${code}) before "${type}"`));
    };
    const cleanup = () => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

/** For a trace, not a figure: extra node flags (e.g. --trace-gc) and the child's stdout, chunk by chunk. */
export interface TraceOptions {
  nodeFlags?: string[];
  stdout?: (chunk: string) => void;
}

/** `which`: the real bot (bot-process.ts) or the bare defer-only floor (bare-bot.ts). */
export async function startChildBot(
  env: Record<string, string>,
  which: 'bot' | 'bare' = 'bot',
  trace: TraceOptions = {},
): Promise<ChildBot> {
  await buildOnce();
  const script = join(DIST_DIR, 'bench', 'children', which === 'bot' ? 'bot-process.js' : 'bare-bot.js');
  const child = fork(script, [], {
    // npm start's own node flags, plus only what the measurement needs: a callable gc().
    execArgv: [...startNodeFlags(), '--expose-gc', ...(trace.nodeFlags ?? [])],
    env: { ...process.env, ...env },
    stdio: ['ignore', trace.stdout ? 'pipe' : 'inherit', 'inherit', 'ipc'],
  });
  const { stdout } = trace;
  if (stdout) child.stdout?.setEncoding('utf8').on('data', stdout);
  try {
    await next(child, 'ready', 60_000);
  } catch (err) {
    child.kill();
    throw err;
  }
  return {
    pid: child.pid ?? -1,
    rss: async () => {
      const reply = next<{ rss: number; heapUsed: number }>(child, 'rss', 30_000);
      child.send({ type: 'rss' });
      return reply;
    },
    loop: async () => {
      const reply = next<{ active: number; idle: number }>(child, 'loop', 30_000);
      child.send({ type: 'loop' });
      return reply;
    },
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.send({ type: 'stop' });
      const timer = setTimeout(() => child.kill(), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
