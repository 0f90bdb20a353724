// Diagnosis, not a figure: reads a V8 CPU profile (a `.cpuprofile` written by node's --cpu-prof) and prints where the
// thread's time went: its busy stretches (consecutive samples with the thread not idle, which is what a request
// arriving meanwhile waits behind) after the first SKIP ms, and self time grouped by package or, for the desk's own
// code, by wing. To profile the desk's bot while figure 6 runs:
//   npx tsx bench/receipt-trace.ts --batches 5 --no-floor --node-flag --cpu-prof --node-flag --cpu-prof-dir=/tmp/prof
//   npx tsx bench/cpu-profile.ts /tmp/prof/CPU.*.cpuprofile [--skip MS] [--top N]
// Self time of a JavaScript function includes the native code it called (node-sqlite3's binding, for one).
import { readFileSync } from 'node:fs';
import { percentile } from './lib/stats.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const argv = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
};
const file = argv.find((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--'));
if (!file) {
  console.error('usage: npx tsx bench/cpu-profile.ts FILE.cpuprofile [--skip MS] [--top N]');
  process.exit(2);
}
const SKIP_MS = option('--skip', 8000);
const TOP = option('--top', 25);

const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const idle = (n: ProfileNode) => n.callFrame.functionName === '(idle)';

/** The package a frame belongs to, or the desk's wing (`desk:bot/store`), or the engine's own label. */
function groupOf(n: ProfileNode): string {
  const { url, functionName } = n.callFrame;
  const pkg = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg) return pkg;
  const desk = /\/src\/((?:bot|gateway|local-discord|sandbox)\/[^/]+)/.exec(url)?.[1];
  if (desk) return `desk:${desk.replace(/\.js$/, '')}`;
  if (url.startsWith('node:')) return url;
  return url ? 'other' : functionName;
}

// Self time by group, over the whole profile; and the busy stretches after SKIP_MS, each as [start, end] in µs.
const selfByGroup = new Map<string, number>();
const stretches: number[] = [];
let at = profile.startTime;
let stretchStart: number | undefined;
let last = at;
for (let i = 0; i < profile.samples.length; i++) {
  at += profile.timeDeltas[i] ?? 0;
  const node = nodes.get(profile.samples[i] ?? -1);
  if (!node) continue;
  const spent = profile.timeDeltas[i + 1] ?? 0;
  selfByGroup.set(groupOf(node), (selfByGroup.get(groupOf(node)) ?? 0) + spent);
  if (!idle(node)) {
    stretchStart ??= at;
    last = at;
  } else if (stretchStart !== undefined) {
    if (stretchStart - profile.startTime > SKIP_MS * 1000) stretches.push((last - stretchStart) / 1000);
    stretchStart = undefined;
  }
}

const total = [...selfByGroup.values()].reduce((a, b) => a + b, 0) / 1000;
const idleMs = (selfByGroup.get('(idle)') ?? 0) / 1000;
console.log(`${file}: ${total.toFixed(0)} ms sampled, ${(total - idleMs).toFixed(0)} ms busy`);
const busy = stretches.reduce((a, b) => a + b, 0);
const over = (ms: number) => stretches.filter((s) => s >= ms);
if (stretches.length === 0) console.log(`no busy stretch after ${SKIP_MS} ms`);
else
  console.log(
    `busy stretches after ${SKIP_MS} ms: ${stretches.length}, p50 ${percentile(stretches, 50).toFixed(1)} ms, ` +
      `p90 ${percentile(stretches, 90).toFixed(1)} ms, p99 ${percentile(stretches, 99).toFixed(1)} ms, ` +
      `max ${Math.max(0, ...stretches).toFixed(1)} ms; ${busy.toFixed(0)} ms busy in them, ` +
      `${over(5)
        .reduce((a, b) => a + b, 0)
        .toFixed(0)} ms in the ${over(5).length} of 5 ms or more`,
  );
console.log('self time by package or wing, ms:');
for (const [group, us] of [...selfByGroup].sort((a, b) => b[1] - a[1]).slice(0, TOP)) {
  console.log(`${(us / 1000).toFixed(0).padStart(8)}  ${group}`);
}
