// The bot alone in a child process, so its RSS is its own, started as `npm start` starts it with a Discord token set
// (src/bot/main.ts's startApp: the restored-store check, then the bot; nothing of the offline playground). Configured
// by the environment the parent passes; answers {rss} after a forced collection and {loop} with its event loop's use
// so far when asked, and stops on request.
// Needs node --expose-gc. With BENCH_STALLS=1 (a diagnosis, never a figure) it prints each collection and each time
// its event loop came back late by STALL_MS or more, as `stall {"kind","at","ms"}` lines (at: epoch ms of the start),
// and every 250 ms its event loop's use (`elu`) and its CPU so far (`cpu`, ms in the `ms` field).
import { PerformanceObserver, performance as perf } from 'node:perf_hooks';
import { PartMissingError } from '../lib/bot-loader.js';

type Request = { type: 'rss' } | { type: 'loop' } | { type: 'stop' };

const send = (msg: Record<string, unknown>) => process.send?.(msg);

const STALL_MS = 4;

function printStalls(): void {
  const epoch = (t: number) => performance.timeOrigin + t;
  const print = (kind: string, at: number, ms: number) =>
    process.stdout.write(`stall ${JSON.stringify({ kind, at, ms })}\n`);
  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      print(`gc${((e as { detail?: { kind?: number } }).detail)?.kind ?? ''}`, epoch(e.startTime), e.duration);
  }).observe({ entryTypes: ['gc'] });
  let elu = perf.eventLoopUtilization();
  setInterval(() => {
    const now = perf.eventLoopUtilization();
    print('elu', epoch(performance.now()), perf.eventLoopUtilization(now, elu).utilization);
    // Not a stall: the process's CPU so far (ms), so a reader can take the CPU a bet over a span.
    const cpu = process.cpuUsage();
    print('cpu', epoch(performance.now()), (cpu.user + cpu.system) / 1000);
    elu = now;
  }, 250).unref();
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    if (now - last - 1 >= STALL_MS) print('loop', epoch(last + 1), now - last - 1);
    last = now;
  }, 1).unref();
}

async function main(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run this child with node --expose-gc so RSS is read after a full collection');
  if (!process.env.DISCORD_TOKEN) throw new Error('the bot child runs as on Discord: DISCORD_TOKEN must be set');
  const { startApp } = (await import('../../src/bot/main.js').catch((err) => {
    throw (err as { code?: string }).code === 'ERR_MODULE_NOT_FOUND'
      ? new PartMissingError('the bot entry point src/bot/main.ts (startApp) is not there yet')
      : err;
  })) as typeof import('../../src/bot/main.js');
  if (process.env.BENCH_STALLS === '1') printStalls();
  // As npm start's main does: the process runs the desk alone.
  const app = await startApp({ env: process.env, print: () => {}, ownProcess: true });
  process.on('message', (msg: Request) => {
    if (msg.type === 'rss') {
      // Two passes: the first frees objects whose finalizers release more.
      gc();
      gc();
      send({ type: 'rss', rss: process.memoryUsage().rss, heapUsed: process.memoryUsage().heapUsed });
    } else if (msg.type === 'loop') {
      // The event loop's use since the start (ms active and idle), read with no timer of its own: a reader takes the
      // share it was busy over a span from two readings.
      const { active, idle } = perf.eventLoopUtilization();
      send({ type: 'loop', active, idle });
    } else if (msg.type === 'stop') {
      void app.stop().finally(() => process.exit(0));
    }
  });
  send({ type: 'ready' });
}

main().catch((err) => {
  send({ type: 'error', message: err instanceof Error ? err.message : String(err) });
  process.exit(1);
});
