// podman as `npm run test:image` and the bench drive it: this repo's containers.conf (runc, explicit ulimits; see
// scripts/image/containers.conf), names every test object carries so teardown finds them, and the network the
// containers reach the host's sandbox, local Discord and PostgreSQL on.
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));
export const IMAGE = process.env.DESK_IMAGE ?? 'localhost/syndicate-desk:latest';
/** A network of its own, with a fixed subnet: the host is its gateway, 10.89.135.1, for every container on it. */
export const NETWORK = 'desk-image-test';
export const SUBNET = '10.89.135.0/24';
export const HOST_FROM_CONTAINERS = '10.89.135.1';

/** podman's environment: this repo's containers.conf unless CONTAINERS_CONF is set. */
export const podmanEnv = () => ({
  ...process.env,
  CONTAINERS_CONF: process.env.CONTAINERS_CONF ?? join(REPO, 'scripts/image/containers.conf'),
});
const env = podmanEnv;

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** podman with its exit code and output. */
export function podmanRun(args: string[]): Run {
  const r = spawnSync('podman', args, { env: env(), encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.error) {
    throw new Error(`podman could not run (${r.error.message}): install podman, buildah and runc (.ci/run does)`);
  }
  return { code: r.status ?? -1, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

/** podman's stdout; a non-zero exit throws with its message. */
export function podman(args: string[]): string {
  const r = podmanRun(args);
  if (r.code !== 0) throw new Error(`podman ${args.join(' ')} exited ${r.code}: ${r.stderr.trim().slice(-2000)}`);
  return r.stdout.trim();
}

/** podman, not blocking the event loop (a test's servers on the host must answer the container meanwhile). */
export function podmanAsync(args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn('podman', args, { env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString('utf8');
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString('utf8');
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

export async function podmanOk(args: string[]): Promise<string> {
  const r = await podmanAsync(args);
  if (r.code !== 0) throw new Error(`podman ${args.join(' ')} exited ${r.code}: ${r.stderr.trim().slice(-2000)}`);
  return r.stdout.trim();
}

/** The network, created when missing (its bridge comes up with its first container). */
export function ensureNetwork(): void {
  if (podmanRun(['network', 'exists', NETWORK]).code === 0) return;
  podman(['network', 'create', '--subnet', SUBNET, '--gateway', HOST_FROM_CONTAINERS, NETWORK]);
}

/**
 * A podman secret holding `value`, passed through a shell pipe (podman reads `-` only from a FIFO, and node's stdio
 * pipes are sockets), the value in the shell's environment, never in an argument list.
 */
export function createSecret(name: string, value: string): void {
  podmanRun(['secret', 'rm', name]);
  const r = spawnSync('sh', ['-c', 'printf %s "$SECRET_VALUE" | podman secret create "$SECRET_NAME" -'], {
    env: { ...env(), SECRET_VALUE: value, SECRET_NAME: name },
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`podman secret create ${name} exited ${r.status}: ${r.stderr}`);
}

/** The host port podman published a container port on (`-p 127.0.0.1::PORT`). */
export function publishedPort(container: string, port: number): number {
  const line = podman(['port', container, `${port}/tcp`]);
  const found = line.match(/:(\d+)\s*$/m);
  if (!found) throw new Error(`podman port ${container} ${port}: ${line}`);
  return Number(found[1]);
}

/** Removes containers, pods, volumes and secrets by name, whatever state they are in. */
export function removeAll(names: { containers?: string[]; volumes?: string[]; secrets?: string[] }): void {
  for (const c of names.containers ?? []) podmanRun(['rm', '-f', '-v', '-t', '0', c]);
  for (const v of names.volumes ?? []) podmanRun(['volume', 'rm', '-f', v]);
  for (const s of names.secrets ?? []) podmanRun(['secret', 'rm', s]);
}

/** An HTTP GET's status, 0 when nothing answered within 2 s. */
export async function httpStatus(url: string): Promise<number> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0;
  }
}
