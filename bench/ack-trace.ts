// Diagnosis, not a figure: what each bot's process did while figure 5's burst was being acknowledged. Runs the
// figure's bursts (the desk and the bare bot, each in its own process, alternating) with the children under
// --trace-gc, and prints per burst: the p99, the main thread's CPU from the burst's sending to its last
// acknowledgement (/proc schedstat, ns), the other threads' (V8's GC and compiler helpers, libuv's pool), and the
// collections V8 ran meanwhile. Counts, unlike times, hardly move with the load on the machine.
// `npx tsx bench/ack-trace.ts [rounds]` (default 4 a side).
import { readdirSync, readFileSync } from 'node:fs';
import { burst } from './figures/interaction-ack.js';
import { startChildBot } from './lib/child-bot.js';
import { bookedEvents } from './lib/sandbox-events.js';
import { SANDBOX_KEY, startStack, waitForBotReady } from './lib/stack.js';
import { percentile } from './lib/stats.js';
import { waitFor } from './lib/wait.js';

const ROUNDS = Number(process.argv[2] ?? 4);

/** CPU ms each thread of the process has run: the main thread (its id is the pid) and the rest summed. */
function threadCpu(pid: number): { main: number; others: number } {
  let main = 0;
  let others = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const ms = Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
      if (tid === String(pid)) main = ms;
      else others += ms;
    } catch {
      // A thread that ended between the listing and the read.
    }
  }
  return { main, others };
}

interface Row {
  which: 'bot' | 'bare';
  p99: number;
  mainMs: number;
  othersMs: number;
  scavenges: number;
  majors: string[];
}

const stack = await startStack({ webhook: false, startBotHere: false });
const rows: Row[] = [];
try {
  const picks = await bookedEvents(stack.sandbox.url, SANDBOX_KEY, 101);
  for (let round = 0; round < ROUNDS; round++) {
    for (const which of round % 2 === 0 ? (['bot', 'bare'] as const) : (['bare', 'bot'] as const)) {
      let inWindow = false;
      const gcLines: string[] = [];
      const child = await startChildBot(stack.env, which, {
        nodeFlags: ['--trace-gc'],
        stdout: (chunk) => {
          if (inWindow) gcLines.push(...chunk.split('\n').filter((l) => /Scavenge|Mark-Compact/.test(l)));
        },
      });
      try {
        await waitForBotReady(stack.ld, which === 'bare' ? 'markets' : undefined);
        let cpu0 = threadCpu(child.pid);
        let cpu1 = cpu0;
        const b = await burst(stack.ld, picks, which === 'bot', {
          sending: () => {
            inWindow = true;
            cpu0 = threadCpu(child.pid);
          },
          acknowledged: () => {
            cpu1 = threadCpu(child.pid);
            inWindow = false;
          },
        });
        const majors = gcLines.filter((l) => l.includes('Mark-Compact'));
        rows.push({
          which,
          p99: percentile(b.ms, 99),
          mainMs: cpu1.main - cpu0.main,
          othersMs: cpu1.others - cpu0.others,
          scavenges: gcLines.length - majors.length,
          majors: majors.map((l) => /Mark-Compact ([\d.]+ \([\d.]+\) -> [\d.]+)/.exec(l)?.[1] ?? '?'),
        });
        const r = rows.at(-1)!;
        console.log(
          `${which.padEnd(4)} round ${round}: p99 ${r.p99.toFixed(0)} ms; main thread ${r.mainMs.toFixed(0)} ms, other threads ${r.othersMs.toFixed(0)} ms of CPU; ${r.scavenges} scavenges, ${r.majors.length} mark-compacts${r.majors.length ? ` (${r.majors.join(', ')} MB)` : ''}`,
        );
      } finally {
        await child.stop();
        await waitFor(() => stack.ld.connectedBots === 0, 10_000, `the ${which} bot to disconnect`);
      }
    }
  }
} finally {
  await stack.close();
}
for (const which of ['bot', 'bare'] as const) {
  const mine = rows.filter((r) => r.which === which);
  const med = (xs: number[]) => percentile(xs, 50).toFixed(0);
  console.log(
    `${which}: median p99 ${med(mine.map((r) => r.p99))} ms, main thread ${med(mine.map((r) => r.mainMs))} ms; a mark-compact inside the window in ${mine.filter((r) => r.majors.length > 0).length} of ${mine.length} bursts`,
  );
}
