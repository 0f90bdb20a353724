// Diagnosis, not a figure: where figure 6's receipts spend their time, on both sides as the figure runs them (the
// desk's bot and the floor's receiver each in a process of their own). This process holds the sandbox and the local
// Discord; it notes, per receipt, when the sandbox finished the work, when its webhook POST was created and written
// to the socket, when the receiver's 2xx came back, when the edit's PATCH reached the local Discord and when the local
// Discord applied it. So a receipt's time splits into this process's part before the POST is written, the receiver's
// part (POST → PATCH, which holds this process's wait to read the PATCH as well) and this process's part after. It
// also reads this process's event-loop delay over each side's run, the bot process's collections and late event-loop
// turns (BENCH_STALLS in bench/children/bot-process.ts) matched to the slow receipts, and the bot's CPU a bet over the
// measured batches.
// `npx tsx bench/receipt-trace.ts [--batches N] [--members N] [--no-floor] [--env NAME=VALUE]... [--node-flag FLAG]...`
// (--members: how many members bet at once on the desk's side, 8 as the figure by default; the floor is paced by
// the desk's jobs either way).
import { subscribe } from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { measureFloor, measurePath, type Receipt } from './figures/result-latency.js';
import { machineBusySeconds } from './lib/proc.js';
import { percentile } from './lib/stats.js';

/** When each job's webhook POST was created and answered (by correlation id), and each PATCH's arrival by path. */
const posted = new Map<string, { created: number; written?: number; answered?: number }>();
const patches: { path: string; at: number }[] = [];
const byRequest = new WeakMap<object, string>();

subscribe('undici:request:create', (m) => {
  const { request } = m as { request: { method: string; body: unknown } };
  if (request.method !== 'POST' || !Buffer.isBuffer(request.body)) return;
  const id = /"correlation_id":"([^"]+)"/.exec(request.body.toString('utf8'))?.[1];
  if (!id || posted.has(id)) return;
  posted.set(id, { created: performance.now() });
  byRequest.set(request, id);
});
subscribe('undici:client:sendHeaders', (m) => {
  const { request } = m as { request: object };
  const id = byRequest.get(request);
  const p = id ? posted.get(id) : undefined;
  if (p && p.written === undefined) p.written = performance.now();
});
subscribe('undici:request:headers', (m) => {
  const { request } = m as { request: object };
  const id = byRequest.get(request);
  const p = id ? posted.get(id) : undefined;
  if (p && p.answered === undefined) p.answered = performance.now();
});
subscribe('http.server.request.start', (m) => {
  const { request } = m as { request: IncomingMessage };
  if (request.method === 'PATCH' && request.url) patches.push({ path: request.url, at: performance.now() });
});

const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(name);
const values = (name: string) => argv.flatMap((a, i) => (a === name && argv[i + 1] ? [argv[i + 1]!] : []));
const batches = Number(values('--batches')[0] ?? 2);
const env = Object.fromEntries(
  values('--env').map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
);

/** The bot process's collections and late turns, in this process's performance.now() time. */
const stalls: { kind: string; at: number; ms: number }[] = [];
let pending = '';
const onStdout = (chunk: string) => {
  pending += chunk;
  const lines = pending.split('\n');
  pending = lines.pop() ?? '';
  for (const line of lines) {
    if (!line.startsWith('stall ')) continue;
    const s = JSON.parse(line.slice(6)) as { kind: string; at: number; ms: number };
    stalls.push({ ...s, at: s.at - performance.timeOrigin });
  }
};

interface Split {
  betId: string;
  completedAt: number;
  editedAt: number;
  total: number;
  beforePost: number;
  toWrite: number;
  toAnswer: number;
  toPatch: number;
  writtenToPatch: number;
  lessWrite: number;
  afterPatch: number;
}

function split(receipts: Receipt[]): Split[] {
  return receipts.map((r) => {
    const p = posted.get(r.correlationId);
    const patch = patches
      .filter(
        (x) => x.at <= r.editedAt && (x.path.includes(r.messageId) || decodeURIComponent(x.path).endsWith('@original')),
      )
      .at(-1);
    const created = p?.created ?? Number.NaN;
    const total = r.editedAt - r.completedAt;
    const toWrite = (p?.written ?? Number.NaN) - created;
    const toPatch = (patch?.at ?? Number.NaN) - created;
    return {
      betId: r.betId,
      completedAt: r.completedAt,
      editedAt: r.editedAt,
      total,
      beforePost: created - r.completedAt,
      toWrite,
      toAnswer: (p?.answered ?? Number.NaN) - created,
      toPatch,
      afterPatch: r.editedAt - (patch?.at ?? Number.NaN),
      writtenToPatch: toPatch - toWrite,
      lessWrite: total - toWrite,
    };
  });
}

const fmt = (xs: number[], q: number) => {
  const ok = xs.filter(Number.isFinite);
  return ok.length === 0 ? '   -   ' : percentile(ok, q).toFixed(1).padStart(7);
};

function report(side: string, rows: Split[], delay: ReturnType<typeof monitorEventLoopDelay>) {
  console.log(`\n${side}: ${rows.length} receipts`);
  for (const [name, key] of [
    ['completion → POST created (this process)', 'beforePost'],
    ['POST created → written (this process)', 'toWrite'],
    ['POST created → 2xx back (the receiver)', 'toAnswer'],
    ['POST created → PATCH arrives (the receiver)', 'toPatch'],
    ['POST written → PATCH arrives (the receiver)', 'writtenToPatch'],
    ['PATCH arrives → applied (this process)', 'afterPatch'],
    ['whole receipt', 'total'],
    ['whole receipt less the wait to write the POST', 'lessWrite'],
  ] as const) {
    const xs = rows.map((r) => r[key]);
    console.log(`  ${name.padEnd(50)} p50 ${fmt(xs, 50)}  p90 ${fmt(xs, 90)}  p99 ${fmt(xs, 99)}`);
  }
  console.log(
    `  this process's event-loop delay: p50 ${(delay.percentile(50) / 1e6).toFixed(1)} ms, p99 ${(delay.percentile(99) / 1e6).toFixed(1)} ms, max ${(delay.max / 1e6).toFixed(1)} ms`,
  );
  const slow = [...rows].sort((a, b) => b.total - a.total).slice(0, 8);
  for (const r of slow) {
    const during = stalls
      .filter((x) => !notStall(x.kind))
      .filter((x) => x.at < r.editedAt && x.at + x.ms > r.completedAt)
      .map((x) => `${x.kind} ${x.ms.toFixed(1)} ms at +${(x.at - r.completedAt).toFixed(1)}`);
    console.log(
      `  ${r.betId.slice(0, 14).padEnd(14)} ${r.total.toFixed(1).padStart(6)} ms = ${r.beforePost.toFixed(1)} before POST + ${r.toPatch.toFixed(1)} to PATCH (written at ${r.toWrite.toFixed(1)}, 2xx at ${r.toAnswer.toFixed(1)}) + ${r.afterPatch.toFixed(1)} after${during.length ? `; bot: ${during.join(', ')}` : ''}`,
    );
  }
}

/** Every 100 ms: the machine's busy CPU seconds and this process's CPU µs, to read the load over the receipts' windows. */
const samples: { t: number; busy: number; self: number }[] = [];
setInterval(() => {
  const u = process.cpuUsage();
  samples.push({ t: performance.now(), busy: machineBusySeconds(), self: u.user + u.system });
}, 100).unref();
/** Cores busy on the machine and in this process between t0 and t1. */
function loadBetween(t0: number, t1: number): { machine: number; self: number } {
  const a = samples.find((x) => x.t >= t0);
  const b = samples.findLast((x) => x.t <= t1);
  if (!a || !b || b.t <= a.t) return { machine: Number.NaN, self: Number.NaN };
  return {
    machine: (b.busy - a.busy) / ((b.t - a.t) / 1000),
    self: (b.self - a.self) / 1000 / (b.t - a.t),
  };
}
/** A stall of the bot's event loop this long is listed by the window it fell in. */
const LONG_STALL_MS = 12;
function windows(side: string, r: { batches: { receipts: Receipt[] }[] }) {
  const parts = r.batches.map((b) => {
    const t0 = Math.min(...b.receipts.map((x) => x.completedAt));
    const t1 = Math.max(...b.receipts.map((x) => x.editedAt));
    const l = loadBetween(t0, t1);
    const elu = stalls.filter((x) => x.kind === 'elu' && x.at >= t0 && x.at <= t1 + 250).map((x) => x.ms);
    const mean = elu.length ? (elu.reduce((a, x) => a + x, 0) / elu.length).toFixed(2) : '-';
    const long = stalls
      .filter((x) => !notStall(x.kind) && x.ms >= LONG_STALL_MS && x.at + x.ms >= t0 && x.at <= t1)
      .map((x) => `${x.kind} ${x.ms.toFixed(0)}`);
    return `${((t1 - t0) / 1000).toFixed(1)} s: machine ${l.machine.toFixed(2)}, this process ${l.self.toFixed(2)}, the bot's event loop ${mean} utilized${long.length ? `, its stalls of ${LONG_STALL_MS} ms or more: ${long.join(', ')} ms` : ''}`;
  });
  console.log(`${side}'s receipt windows (cores busy of 2): ${parts.join(' | ')}`);
}

/** Not stalls: the bot's event-loop use and CPU readings every 250 ms. */
const notStall = (kind: string) => kind === 'elu' || kind === 'cpu';

/** The bot's CPU over the measured batches (from 1.5 s before the first result to the last edit), a bet. */
function botCpu(r: { batches: { receipts: Receipt[] }[]; placed: number }) {
  const t0 = Math.min(...(r.batches[0]?.receipts.map((x) => x.completedAt) ?? [])) - 1500;
  const t1 = Math.max(...(r.batches.at(-1)?.receipts.map((x) => x.editedAt) ?? []));
  const cpu = stalls.filter((x) => x.kind === 'cpu');
  const a = cpu.find((x) => x.at >= t0);
  const b = cpu.findLast((x) => x.at <= t1);
  if (!a || !b || r.placed === 0) return;
  console.log(
    `the bot's CPU over the measured batches: ${(b.ms - a.ms).toFixed(0)} ms in ${((b.at - a.at) / 1000).toFixed(1)} s for ${r.placed} bets, ${((b.ms - a.ms) / r.placed).toFixed(2)} ms a bet`,
  );
}

const deskDelay = monitorEventLoopDelay({ resolution: 1 });
deskDelay.enable();
const members = values('--members')[0];
const desk = await measurePath(true, {
  batches,
  ...(members ? { members: Number(members) } : {}),
  trace: { stdout: onStdout, env: { ...env, BENCH_STALLS: '1' }, nodeFlags: values('--node-flag') },
});
deskDelay.disable();
botCpu(desk);
console.log(`the bot's event loop over the measured batches: ${desk.loopBusy?.toFixed(2) ?? '-'} utilized`);
windows('desk', desk);
report('desk', split(desk.batches.flatMap((b) => b.receipts)), deskDelay);
const byKind = new Map<string, { n: number; ms: number; max: number }>();
for (const x of stalls.filter((x) => !notStall(x.kind))) {
  const k = byKind.get(x.kind) ?? { n: 0, ms: 0, max: 0 };
  byKind.set(x.kind, { n: k.n + 1, ms: k.ms + x.ms, max: Math.max(k.max, x.ms) });
}
console.log(
  `  the bot's stalls over the run: ${[...byKind].map(([k, v]) => `${k} ${v.n}× ${v.ms.toFixed(0)} ms (max ${v.max.toFixed(1)})`).join(', ')}`,
);
if (flag('--no-floor')) process.exit(0);
stalls.length = 0;

posted.clear();
patches.length = 0;
const floorDelay = monitorEventLoopDelay({ resolution: 1 });
floorDelay.enable();
const floor = await measureFloor(desk.batches.map((b) => b.schedule));
floorDelay.disable();
windows('floor', floor);
report('floor', split(floor.batches.flatMap((b) => b.receipts)), floorDelay);
process.exit(0);
