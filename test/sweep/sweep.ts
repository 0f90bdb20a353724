// `npm run sweep`: the tests that read sandbox fixtures (test/integration/sandbox and test/e2e on SQLite), run
// with the wall clock started at each of the sweep's hours (faketime), then once with the test processes held
// to a small CPU allowance (a cgroup v1 cpu group). Prints leg → passed/failed; exits 1 on any failure.
//
//   npm run sweep -- [--hours N] [--only sandbox|e2e] [--cpu PERCENT] [--no-cpu]
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type SweepStart, sweepStarts } from './hours.js';

const SUITES = { sandbox: 'test/integration/sandbox/', e2e: 'test/e2e/' } as const;
const CGROUP_CPU = '/sys/fs/cgroup/cpu';

interface Leg {
  name: string;
  passed: number;
  failed: number;
  /** Why the leg did not run, when it did not. */
  skipped?: string;
  failures: string[];
}

function options() {
  const { values } = parseArgs({
    options: {
      hours: { type: 'string' },
      only: { type: 'string' },
      cpu: { type: 'string', default: '50' },
      'no-cpu': { type: 'boolean', default: false },
    },
  });
  const only = values.only;
  if (only !== undefined && only !== 'sandbox' && only !== 'e2e')
    throw new Error(`--only takes sandbox or e2e, got '${only}'`);
  const cpu = Number(values.cpu);
  if (!Number.isFinite(cpu) || cpu <= 0 || cpu > 100)
    throw new Error(`--cpu takes a percentage of one core above 0 and at most 100, got '${values.cpu}'`);
  return {
    starts: sweepStarts(values.hours === undefined ? undefined : Number(values.hours)),
    suites: only ? [SUITES[only]] : Object.values(SUITES),
    cpu,
    cpuLeg: !values['no-cpu'],
  };
}

/** Why faketime cannot set the clock here, or null when it can. */
function faketimeMissing(): string | null {
  const probe = spawnSync(
    'faketime',
    ['2001-02-03 04:05:06 UTC', 'node', '-e', 'console.log(new Date().getUTCFullYear())'],
    {
      encoding: 'utf8',
    },
  );
  if (probe.error) return `faketime is not installed (${probe.error.message})`;
  if (probe.stdout.trim() !== '2001') return `faketime does not move node's clock (got '${probe.stdout.trim()}')`;
  return null;
}

/** Why a cgroup v1 cpu group cannot be made here, or null when it can. */
function cgroupMissing(): string | null {
  if (!existsSync(join(CGROUP_CPU, 'cgroup.procs'))) return `no cgroup v1 cpu controller at ${CGROUP_CPU}`;
  const probe = join(CGROUP_CPU, `sweep-probe-${process.pid}`);
  try {
    mkdirSync(probe);
    rmdirSync(probe);
    return null;
  } catch (err) {
    return `cannot create a cpu group under ${CGROUP_CPU} (${(err as Error).message})`;
  }
}

/** Runs vitest on the suites (project main) through `prefix`, and reads the counts from its JSON report. */
function runVitest(name: string, prefix: string[], suites: string[], beforeExec = ''): Promise<Leg> {
  const dir = mkdtempSync(join(tmpdir(), 'sweep-'));
  const report = join(dir, 'report.json');
  const log = join(dir, 'vitest.log');
  const vitest = ['npx', 'vitest', 'run', '--project', 'main', '--reporter=default', '--reporter=json'];
  vitest.push(`--outputFile.json=${report}`, ...suites);
  const quoted = [...prefix, ...vitest].map((a) => `'${a.replaceAll("'", `'\\''`)}'`).join(' ');
  // `exec` keeps the shell's pid for vitest, so a cgroup joined by the shell holds vitest and its workers.
  const script = `${beforeExec}exec ${quoted} > '${log}' 2>&1`;
  process.stdout.write(`${name}: running (log ${log})\n`);
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', script], { stdio: 'inherit', env: { ...process.env, FORCE_COLOR: '0' } });
    child.on('exit', () => {
      const leg: Leg = { name, passed: 0, failed: 0, failures: [] };
      if (!existsSync(report)) {
        leg.failed = 1;
        leg.failures.push(`vitest wrote no report: see ${log}`);
        return resolve(leg);
      }
      const json = JSON.parse(readFileSync(report, 'utf8'));
      leg.passed = json.numPassedTests;
      leg.failed = json.numFailedTests + (json.numFailedTestSuites ?? 0);
      for (const file of json.testResults ?? []) {
        const path = file.name.replace(`${process.cwd()}/`, '');
        const failed = (file.assertionResults ?? []).filter((t: { status: string }) => t.status === 'failed');
        for (const t of failed) leg.failures.push(`${path} > ${t.fullName}`);
        // A file that failed outside its tests (a hook, an import): its tests are reported as skipped.
        if (file.status === 'failed' && failed.length === 0) leg.failures.push(`${path}: failed outside its tests`);
      }
      if (leg.failures.length > 0) leg.failures.push(`details in ${log}`);
      resolve(leg);
    });
  });
}

function clockLeg(start: SweepStart, suites: string[]): Promise<Leg> {
  return runVitest(`clock ${start.at} UTC`, ['faketime', `${start.at} UTC`], suites);
}

async function cpuLeg(percent: number, suites: string[]): Promise<Leg> {
  const group = join(CGROUP_CPU, `sweep-${process.pid}`);
  mkdirSync(group);
  try {
    writeFileSync(join(group, 'cpu.cfs_period_us'), '100000');
    writeFileSync(join(group, 'cpu.cfs_quota_us'), String(Math.round(percent * 1000)));
    return await runVitest(`cpu ${percent}% of a core`, [], suites, `echo $$ > '${join(group, 'cgroup.procs')}' && `);
  } finally {
    rmdirSync(group);
  }
}

function table(legs: Leg[]): string {
  const width = Math.max(...legs.map((l) => l.name.length), 3);
  const rows = legs.map((l) =>
    l.skipped
      ? `${l.name.padEnd(width)}  not measurable here: ${l.skipped}`
      : `${l.name.padEnd(width)}  ${String(l.passed).padStart(6)}  ${String(l.failed).padStart(6)}`,
  );
  return [`${'leg'.padEnd(width)}  passed  failed`, ...rows].join('\n');
}

async function main(): Promise<number> {
  const opts = options();
  const legs: Leg[] = [];
  const noFaketime = faketimeMissing();
  for (const start of opts.starts) {
    if (noFaketime)
      legs.push({ name: `clock ${start.at} UTC`, passed: 0, failed: 0, failures: [], skipped: noFaketime });
    else legs.push(await clockLeg(start, opts.suites));
  }
  if (opts.cpuLeg) {
    const noCgroup = cgroupMissing();
    const name = `cpu ${opts.cpu}% of a core`;
    if (noCgroup) legs.push({ name, passed: 0, failed: 0, failures: [], skipped: noCgroup });
    else legs.push(await cpuLeg(opts.cpu, opts.suites));
  }
  for (const l of legs) if (l.skipped) process.stdout.write(`${l.name}: not measurable here: ${l.skipped}\n`);
  process.stdout.write(`\nsuites: ${opts.suites.join(' ')}\n${table(legs)}\n`);
  const failures = legs.flatMap((l) => l.failures.map((f) => `${l.name}: ${f}`));
  if (failures.length > 0) process.stdout.write(`\nfailed:\n${failures.map((f) => `  ${f}`).join('\n')}\n`);
  return legs.some((l) => l.failed > 0) ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: Error) => {
    process.stderr.write(`sweep: ${err.message}\n`);
    process.exit(2);
  },
);
