// `npm run test:image`: deploy/kubernetes/desk.yaml, exactly as an operator applies it, under `podman kube play`. The
// cluster's parts podman does not play are played by the test: the ConfigMap (config.yaml's keys, pointed at this
// host) and the Secret (podman's secret store) it passes in; the database is the external PostgreSQL the manifest
// expects, a throwaway cluster on the host. Two shard Deployments, one PostgreSQL: both ready, both scraped.
// podman 4 publishes every containerPort on the host at the same number (Kubernetes publishes none): the manifest is
// played with each port given a free loopback host port, so the test binds no fixed port (8790 and 8791 stay free
// for `npm start`'s playground). Nothing else of it changes; the test reaches the pods at their network addresses.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/bot/store/migrations.js';
import { type LocalDiscord, startLocalDiscord } from '../../src/local-discord/index.js';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { createDatabase, type PgCluster, startPgCluster } from '../pg/cluster.js';
import { API_KEY } from '../support/harness.js';
import { testPort } from '../support/ports.js';
import { parseExposition, total } from '../support/prom-text.js';
import { until } from '../support/wait.js';
import {
  ensureNetwork,
  HOST_FROM_CONTAINERS,
  IMAGE,
  NETWORK,
  podman,
  podmanOk,
  podmanRun,
  REPO,
  SUBNET,
} from './podman.js';

const MANIFEST = join(REPO, 'deploy/kubernetes/desk.yaml');
const SECRET = 'desk-secrets';
/** `podman kube play` names a Deployment's pods <deployment>-pod-<n> and their containers <pod>-<container>. */
const SHARDS = [0, 1].map((id) => ({ id, pod: `desk-shard-${id}-pod-0`, port: 8790 + id }));

let sandbox: RunningSandbox;
let ld: LocalDiscord;
let cluster: PgCluster;
let storeUrl: string;
let dir: string;
const password = `pw-${Math.random().toString(36).slice(2)}`;

const hostUrl = (url: string) =>
  url.replace('0.0.0.0', HOST_FROM_CONTAINERS).replace('127.0.0.1', HOST_FROM_CONTAINERS);

/** The address a pod has on the test network (its infra container holds the network namespace). */
function podIp(pod: string): string {
  const infra = podman(['pod', 'inspect', pod, '--format', '{{.InfraContainerID}}']);
  const ip = podman(['inspect', infra, '--format', `{{(index .NetworkSettings.Networks "${NETWORK}").IPAddress}}`]);
  if (!/^\d+\.\d+\.\d+\.\d+$/.test(ip)) throw new Error(`no address for ${pod} on ${NETWORK}: ${ip}`);
  return ip;
}

/**
 * The manifest as shipped, each `containerPort` given a free loopback `hostPort` (podman 4 would otherwise publish it
 * at its own number on every address).
 */
async function withFreeHostPorts(manifest: string): Promise<string> {
  const lines = readFileSync(manifest, 'utf8').split('\n');
  const out: string[] = [];
  let ports = 0;
  for (const line of lines) {
    const port = line.match(/^(\s*- \{ name: \w+, containerPort: \d+) \}$/);
    if (port) ports++;
    out.push(port ? `${port[1]}, hostPort: ${await testPort()}, hostIP: 127.0.0.1 }` : line);
  }
  expect(ports, 'one containerPort per shard Deployment').toBe(SHARDS.length);
  const played = join(dir, 'desk.yaml');
  writeFileSync(played, out.join('\n'));
  return played;
}

function down() {
  podmanRun(['kube', 'down', MANIFEST]);
  podmanRun(['secret', 'rm', SECRET]);
}

beforeAll(async () => {
  expect(podmanRun(['image', 'exists', IMAGE]).code, `${IMAGE} is not built: run npm run image`).toBe(0);
  down();
  ensureNetwork();
  dir = mkdtempSync(join(tmpdir(), 'desk-kube-'));
  cluster = await startPgCluster({ listenEverywhere: true, password, allowFrom: SUBNET });
  storeUrl = hostUrl(await createDatabase(cluster.adminUrl, 'desk_kube'));
  sandbox = await startSandbox({ port: 0, host: '0.0.0.0', control: true, seed: 1, quiet: true });
  ld = await startLocalDiscord({ port: 0, host: '0.0.0.0', shards: 2 });
  // What `kubectl create secret generic desk-secrets --from-literal=…` makes, in the form podman's secret store reads.
  const secret = {
    'discord-token': Buffer.from(ld.token).toString('base64'),
    'gateway-api-key': Buffer.from(API_KEY).toString('base64'),
    'store-url': Buffer.from(storeUrl).toString('base64'),
  };
  const secretFile = join(dir, 'secret.json');
  writeFileSync(secretFile, JSON.stringify(secret), { mode: 0o600 });
  podman(['secret', 'create', SECRET, secretFile]);
  rmSync(secretFile);
}, 60_000);

afterAll(async () => {
  down();
  await ld?.close();
  await sandbox?.close();
  await cluster?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the Kubernetes manifest under podman kube play', () => {
  it('brings up one pod per shard on one PostgreSQL, both ready, /metrics scraped from each', async () => {
    // config.yaml's keys, with this host's gateway and Discord in place of the real ones.
    const shipped = readFileSync(join(REPO, 'deploy/kubernetes/config.yaml'), 'utf8');
    for (const key of ['DISCORD_APP_ID', 'GATEWAY_BASE_URL', 'SHARD_COUNT', 'METRICS', 'DRAIN_GRACE_SECONDS']) {
      expect(shipped).toMatch(new RegExp(`^  ${key}:`, 'm'));
    }
    const configMap = join(dir, 'config.yaml');
    writeFileSync(
      configMap,
      [
        'apiVersion: v1',
        'kind: ConfigMap',
        'metadata: { name: desk-config }',
        'data:',
        `  DISCORD_APP_ID: "${ld.applicationId}"`,
        `  DISCORD_API_URL: ${hostUrl(ld.apiUrl)}`,
        `  GATEWAY_BASE_URL: ${hostUrl(sandbox.url)}`,
        '  SHARD_COUNT: "2"',
        '  METRICS: "on"',
        '  DRAIN_GRACE_SECONDS: "20"',
        '  LOG_LEVEL: info',
        '',
      ].join('\n'),
    );
    await podmanOk(['kube', 'play', '--network', NETWORK, '--configmap', configMap, await withFreeHostPorts(MANIFEST)]);

    const ready: Record<number, string> = {};
    for (const shard of SHARDS) {
      const base = `http://${podIp(shard.pod)}:${shard.port}`;
      await until(
        `shard ${shard.id} ready`,
        async () => {
          const res = await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(2000) }).catch(() => undefined);
          const body = res ? await res.text() : '';
          ready[shard.id] = `${res?.status ?? 'no answer'} ${body}`;
          return res?.status === 200;
        },
        {
          timeoutMs: 90_000,
          everyMs: 500,
          seen: () => `${ready[shard.id]}\n${podmanRun(['logs', '--tail', '15', `${shard.pod}-desk`]).stderr}`,
        },
      );
      // What Prometheus does with the pod's prometheus.io annotations: GET its address's /metrics.
      const scrape = await fetch(`${base}/metrics`);
      expect(scrape.status).toBe(200);
      const metrics = parseExposition(await scrape.text());
      expect(total(metrics, 'desk_draining')).toBe(0);
      expect(total(metrics, 'process_start_time_seconds')).toBeGreaterThan(0);
    }
    // One Discord connection per shard: the two pods split the token's shards.
    expect(ld.connectedBots).toBe(2);
    for (const shard of SHARDS) {
      const user = podman(['exec', `${shard.pod}-desk`, 'id', '-u']);
      expect(user, `shard ${shard.id}`).toBe('10001');
    }
    // One database for both, migrated once (under the store's migration lock): one row per version, none missing.
    const db = new pg.Client({ connectionString: storeUrl.replace(HOST_FROM_CONTAINERS, '127.0.0.1') });
    await db.connect();
    try {
      const applied = await db.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
      const versions = applied.rows.map((r) => Number(r.version));
      expect(versions).toEqual(MIGRATIONS.map((m) => m.version).sort((a, b) => a - b));
    } finally {
      await db.end();
    }
  }, 180_000);
});
