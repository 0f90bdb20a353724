// Figure 26: the container image. Its size as podman counts it (every layer, uncompressed; the base carries no apt
// lists), and the time from `podman run` to `/readyz` answering 200 on a warm store: the bot on the local Discord and
// the sandbox (both on this host), its SQLite store on a volume a first, untimed start has migrated.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../src/bot/config/free-port.js';
import { startLocalDiscord } from '../../src/local-discord/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import {
  createSecret,
  ensureNetwork,
  HOST_FROM_CONTAINERS,
  IMAGE,
  NETWORK,
  podman,
  podmanOk,
  REPO,
  removeAll,
} from '../../test/image/podman.js';
import { type FigureResult, figure, type Target } from '../lib/figure.js';
import { median } from '../lib/stats.js';

export const IMAGE_SIZE_TARGET: Target = { on: 'value', op: '<=', limit: 250 };
export const IMAGE_READY_TARGET: Target = { on: 'value', op: '<=', limit: 5000 };
const RUNS = 3;
const NAME = 'desk-bench-ready';
const VOLUME = 'desk-bench-data';
const SECRETS = ['desk-bench-discord-token', 'desk-bench-gateway-key'];

/**
 * CPU seconds the container's processes used so far (its cgroup's accounting, v1 or v2): what the start costs, which
 * the wall time shows only on a quiet machine. Undefined where the cgroup cannot be read.
 */
function cpuSeconds(container: string): number | undefined {
  const path = podman(['inspect', '--format', '{{.State.CgroupPath}}', container]);
  for (const [file, scale] of [
    [`/sys/fs/cgroup/cpu,cpuacct${path}/cpuacct.usage`, 1e-9],
    [`/sys/fs/cgroup/cpuacct${path}/cpuacct.usage`, 1e-9],
  ] as const) {
    if (existsSync(file)) return Number(readFileSync(file, 'utf8').trim()) * scale;
  }
  const v2 = `/sys/fs/cgroup${path}/cpu.stat`;
  if (existsSync(v2)) return Number(readFileSync(v2, 'utf8').match(/^usage_usec (\d+)/m)?.[1]) / 1e6;
  return undefined;
}

const withPort = (args: string[], port: number) =>
  args.map((a) => (a === '127.0.0.1::8790' ? `127.0.0.1:${port}:8790` : a));

async function readyAfter(receiver: string, t0: number, timeoutMs = 60_000): Promise<number> {
  for (;;) {
    const ok = await fetch(`${receiver}/readyz`, { signal: AbortSignal.timeout(1000) })
      .then(async (r) => {
        await r.arrayBuffer();
        return r.status === 200;
      })
      .catch(() => false);
    if (ok) return performance.now() - t0;
    if (performance.now() - t0 > timeoutMs) throw new Error(`not ready within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export async function containerImage(): Promise<FigureResult[]> {
  // Brings the image up to date first (untimed), as figure 25 builds dist/.
  execFileSync(process.execPath, [join(REPO, 'scripts', 'image', 'build.mjs')], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const bytes = Number(podman(['image', 'inspect', '--format', '{{.Size}}', IMAGE]));
  const mb = bytes / 1e6;

  removeAll({ containers: [NAME], volumes: [VOLUME], secrets: SECRETS });
  ensureNetwork();
  const sandbox = await startSandbox({ port: 0, host: '0.0.0.0', seed: 1, quiet: true });
  const ld = await startLocalDiscord({ port: 0, host: '0.0.0.0' });
  const times: number[] = [];
  const cpus: number[] = [];
  try {
    createSecret(SECRETS[0] as string, ld.token);
    createSecret(SECRETS[1] as string, 'sandbox-key-alpha');
    podman(['volume', 'create', VOLUME]);
    const args = [
      'run',
      '-d',
      '--name',
      NAME,
      '--network',
      NETWORK,
      '-p',
      '127.0.0.1::8790',
      '-v',
      `${VOLUME}:/data`,
      '--stop-timeout',
      '30',
      '--secret',
      `${SECRETS[0]},type=mount,target=discord-token,uid=10001,mode=0400`,
      '--secret',
      `${SECRETS[1]},type=mount,target=gateway-api-key,uid=10001,mode=0400`,
      '-e',
      'DISCORD_TOKEN_FILE=/run/secrets/discord-token',
      '-e',
      'GATEWAY_API_KEY_FILE=/run/secrets/gateway-api-key',
      '-e',
      `DISCORD_APP_ID=${ld.applicationId}`,
      '-e',
      `DISCORD_API_URL=${ld.apiUrl.replace('0.0.0.0', HOST_FROM_CONTAINERS)}`,
      '-e',
      `GATEWAY_BASE_URL=${sandbox.url.replace('0.0.0.0', HOST_FROM_CONTAINERS)}`,
      '-e',
      'BOT_PROCESS_ID=desk-bench',
      '-e',
      'LOG_LEVEL=warn',
      IMAGE,
    ];
    // The first start migrates the fresh store on the volume: untimed. Then RUNS timed starts on that warm store.
    // A fixed host port, so the readiness polling starts with `podman run`, not after it returns.
    for (let i = 0; i <= RUNS; i++) {
      const port = await freePort();
      const receiver = `http://127.0.0.1:${port}`;
      const t0 = performance.now();
      const started = podmanOk(withPort(args, port));
      const elapsed = await readyAfter(receiver, t0);
      await started;
      const cpu = cpuSeconds(NAME);
      if (i > 0) {
        times.push(elapsed);
        if (cpu !== undefined) cpus.push(cpu);
      }
      await podmanOk(['stop', NAME]);
      await podmanOk(['rm', '-v', NAME]);
    }
  } finally {
    removeAll({ containers: [NAME], volumes: [VOLUME], secrets: SECRETS });
    await ld.close();
    await sandbox.close();
  }
  return [
    figure({
      name: '26 container image size',
      value: mb,
      unit: 'MB',
      baseline: null,
      target: IMAGE_SIZE_TARGET,
      note: `${IMAGE}, every layer uncompressed, the base without apt lists`,
    }),
    figure({
      name: '26 container start to ready, warm store',
      value: median(times),
      unit: 'ms',
      baseline: null,
      target: IMAGE_READY_TARGET,
      note:
        `podman run to /readyz 200, median of ${RUNS} (${times.map((t) => Math.round(t)).join(', ')} ms); ` +
        (cpus.length
          ? `the container's CPU to ready ${cpus.map((c) => c.toFixed(2)).join(', ')} s; load average ${loadavg()[0]?.toFixed(1)}`
          : `its CPU not readable here; load average ${loadavg()[0]?.toFixed(1)}`),
    }),
  ];
}
