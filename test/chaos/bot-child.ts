import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const ENTRY = fileURLToPath(new URL('./bot-process.ts', import.meta.url));
const TSX_CLI = createRequire(import.meta.url).resolve('tsx/cli');

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
  const child: ChildProcess = spawn(process.execPath, [TSX_CLI, ENTRY], {
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
