import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setBetRole } from './bet-role.js';
import { BOT_PROCESS_JS, transpiledBotDir } from './bot-js.js';
import type { Desk } from './harness.js';
import { until } from './wait.js';

const ENTRY = fileURLToPath(new URL('./bot-process.ts', import.meta.url));
// tsx's loader in this very node process: the tsx CLI would run the bot in a grandchild that a SIGKILL of
// the CLI leaves alive (holding the webhook port), so the kill would not be a kill.
export const TSX_LOADER = pathToFileURL(
  join(dirname(createRequire(import.meta.url).resolve('tsx/cli')), 'loader.mjs'),
).href;

/** A bot running in a child process: what it printed, and how to kill it the hard way. */
export interface BotChild {
  pid: number;
  receiverUrl: string;
  stderr: string[];
  /** Resolves with the exit code or signal when the process ends (a crash shows up here). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL: no shutdown hooks, no flushing — the crash the store must survive. */
  kill9(): Promise<void>;
  /** SIGTERM and wait. */
  stop(): Promise<void>;
}

export async function spawnBot(env: Record<string, string>, readyTimeoutMs = 20_000): Promise<BotChild> {
  // The run's transpiled bot when there is one (test/support/bot-js.ts), else the sources under tsx.
  const js = transpiledBotDir();
  const args = js ? [join(js, BOT_PROCESS_JS)] : ['--import', TSX_LOADER, ENTRY];
  const child: ChildProcess = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stderr: string[] = [];
  child.stderr?.on('data', (c: Buffer) => stderr.push(c.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const ready = await new Promise<{ receiverUrl: string }>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(`the bot process did not get ready within ${readyTimeoutMs} ms:\n${stderr.join('').slice(-2000)}`),
      );
    }, readyTimeoutMs);
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      const line = out.split('\n').find((l) => l.startsWith('{"ready"'));
      if (line) {
        clearTimeout(timer);
        resolve(JSON.parse(line) as { receiverUrl: string });
      }
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(
        new Error(`the bot process exited (${code ?? signal}) before it was ready:\n${stderr.join('').slice(-2000)}`),
      );
    });
  });
  return {
    pid: child.pid!,
    receiverUrl: ready.receiverUrl,
    stderr,
    exited,
    async kill9() {
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * A bot process for `desk` (its environment, plus `env`), connected to the local Discord with its commands
 * registered and betting open (the admin named the bet role).
 */
export async function spawnReadyBot(desk: Desk, env: Record<string, string> = {}): Promise<BotChild> {
  const child = await spawnBot({ ...desk.env, ...env });
  await desk.ld.waitForBot(15_000);
  await until('the commands', () => desk.ld.commands().length > 0, { timeoutMs: 15_000 });
  await setBetRole(desk.ld);
  return child;
}

/**
 * kill -9 of `child` (a process that already exited is fine), then a new bot process on the same store once the
 * local Discord has seen the old one's gateway session drop, connected again.
 */
export async function respawnBot(desk: Desk, child: BotChild | undefined): Promise<BotChild> {
  await child?.kill9();
  await until('the old gateway session to drop', () => desk.ld.connectedBots === 0, { timeoutMs: 5_000 }).catch(
    () => undefined,
  );
  const next = await spawnBot(desk.env);
  await desk.ld.waitForBot(15_000);
  return next;
}
