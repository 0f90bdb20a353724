// `npm run test:image`: compose.yaml, exactly as shipped, under podman-compose (Debian's package), in a directory laid
// out as its header tells an operator: the file, `desk.env` and the two secret files. The sandbox gateway and the local
// Discord run here, on the host; the compose project's network is made beforehand on a known subnet so desk.env can
// name the host, and the receiver is published on a free loopback port (DESK_PUBLISH), so no fixed port is bound.
// An online backup is taken inside the running container (`npm run backup`'s compiled command).
import { spawn } from 'node:child_process';
import { chownSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalDiscord, startLocalDiscord } from '../../src/local-discord/index.js';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { setBetRole } from '../support/bet-role.js';
import { betSlip, newTrail, pickEvent, press } from '../support/flows.js';
import { API_KEY, type Desk } from '../support/harness.js';
import { textOf } from '../support/messages.js';
import { SandboxControl } from '../support/sandbox-control.js';
import { until } from '../support/wait.js';
import { httpStatus, IMAGE, podman, podmanEnv, podmanRun, publishedPort, REPO } from './podman.js';

const PROJECT = 'desk-compose-test';
/** What podman-compose names the project's default network, its container and its volume. */
const NETWORK = `${PROJECT}_default`;
const CONTAINER = `${PROJECT}_desk_1`;
const VOLUME = `${PROJECT}_desk-data`;
const SUBNET = '10.89.136.0/24';
const HOST = '10.89.136.1';

let dir: string;
let sandbox: RunningSandbox;
let ld: LocalDiscord;
let control: SandboxControl;

/** podman-compose in the project's directory; its exit code and output. */
function compose(args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('podman-compose', ['-p', PROJECT, ...args], {
      cwd: dir,
      env: { ...podmanEnv(), DESK_PUBLISH: '127.0.0.1:', DESK_IMAGE: IMAGE },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString('utf8');
    });
    child.stderr.on('data', (c: Buffer) => {
      out += c.toString('utf8');
    });
    child.on('error', (err) =>
      reject(new Error(`podman-compose could not run (${err.message}): apt-get install podman-compose`)),
    );
    child.on('exit', (code) => resolve({ code: code ?? -1, out }));
  });
}

function removeProject(): void {
  podmanRun(['rm', '-f', '-t', '0', CONTAINER]);
  podmanRun(['pod', 'rm', '-f', `pod_${PROJECT}`]);
  podmanRun(['volume', 'rm', '-f', VOLUME]);
  podmanRun(['network', 'rm', '-f', NETWORK]);
}

beforeAll(async () => {
  expect(podmanRun(['image', 'exists', IMAGE]).code, `${IMAGE} is not built: run npm run image`).toBe(0);
  removeProject();
  podman(['network', 'create', '--subnet', SUBNET, '--gateway', HOST, NETWORK]);
  sandbox = await startSandbox({ port: 0, host: '0.0.0.0', control: true, seed: 1, quiet: true });
  control = new SandboxControl(sandbox.url);
  ld = await startLocalDiscord({ port: 0, host: '0.0.0.0' });
  dir = mkdtempSync(join(tmpdir(), 'desk-compose-'));
  copyFileSync(join(REPO, 'compose.yaml'), join(dir, 'compose.yaml'));
  const toHost = (url: string) => url.replace('0.0.0.0', HOST);
  writeFileSync(
    join(dir, 'desk.env'),
    [
      `DISCORD_APP_ID=${ld.applicationId}`,
      `DISCORD_GUILD_ID=${ld.guildId}`,
      `DISCORD_API_URL=${toHost(ld.apiUrl)}`,
      `GATEWAY_BASE_URL=${toHost(sandbox.url)}`,
      '',
    ].join('\n'),
  );
  // The secret files as the header says: one value each, the desk's user (10001) their only reader.
  mkdirSync(join(dir, 'secrets'));
  for (const [name, value] of [
    ['discord-token', ld.token],
    ['gateway-api-key', API_KEY],
  ] as const) {
    const file = join(dir, 'secrets', name);
    writeFileSync(file, value, { mode: 0o400 });
    chownSync(file, 10001, 10001);
  }
}, 60_000);

afterAll(async () => {
  if (dir) await compose(['down', '-t', '0']).catch(() => undefined);
  removeProject();
  await ld?.close();
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('compose.yaml under podman-compose', () => {
  it('comes up ready, takes a bet through the local Discord, backs up online and stops with a drain (exit 0)', async () => {
    const up = await compose(['up', '-d']);
    expect(up.code, up.out.slice(-2000)).toBe(0);
    const receiver = `http://127.0.0.1:${publishedPort(CONTAINER, 8790)}`;
    await until('the desk to answer /readyz 200', async () => (await httpStatus(`${receiver}/readyz`)) === 200, {
      timeoutMs: 60_000,
      everyMs: 200,
      seen: () => podmanRun(['logs', '--tail', '20', CONTAINER]).stderr.slice(-2000),
    });
    // compose.yaml's health check, run as the engine runs it.
    expect(podmanRun(['healthcheck', 'run', CONTAINER]).code).toBe(0);

    await until('the bot to register its slash commands', () => ld.commands().length > 0, { timeoutMs: 30_000 });
    await setBetRole(ld, ld.roleIds.bettor, 30_000);
    const desk = { ld, sandbox, control } as unknown as Desk;
    const sel = await pickEvent(desk, 'nba', 0);
    const trail = newTrail();
    const { slip } = await betSlip(desk, trail, { user: ld.users.bettor, sel, stake: 6, timeoutMs: 30_000 });
    await press(desk, trail, ld.users.bettor, slip, /^Confirm$/);
    await until('the slip to show the bet placed', () => /Bet placed ✅/.test(textOf(ld.message(slip.id))), {
      timeoutMs: 30_000,
      seen: () => textOf(ld.message(slip.id)),
    });
    const bets = (await control.state()).bets.filter((b) => JSON.stringify(b.bet).includes(sel.epk));
    expect(bets.map((b) => Number(b.bet.stake))).toEqual([6]);

    // An online backup inside the running container, onto the volume, as docs/operations.md tells it.
    const backup = podmanRun([
      'exec',
      CONTAINER,
      'node',
      'dist/src/bot/store/backup-cli.js',
      'backup',
      '/data/b.sqlite',
    ]);
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toMatch(/ledger head: entry \d+, hash [0-9a-f]{64}/);
    expect(backup.stdout).toMatch(/bet records 1 \((placed|submitted) 1\)/);

    // podman-compose 1.0 does not read stop_grace_period: the timeout is given, as the header says.
    const t0 = Date.now();
    const stop = await compose(['stop', '-t', '30']);
    expect(stop.code, stop.out.slice(-2000)).toBe(0);
    expect(Date.now() - t0).toBeLessThan(25_000);
    const state = JSON.parse(podman(['inspect', CONTAINER]))[0].State as { ExitCode: number };
    expect(state.ExitCode).toBe(0);
    const logs = podmanRun(['logs', CONTAINER]);
    expect(logs.stdout + logs.stderr).toContain('SIGTERM: draining');
    for (const secret of [ld.token, API_KEY]) {
      expect(logs.stdout + logs.stderr + up.out + stop.out).not.toContain(secret);
      expect(podman(['inspect', CONTAINER])).not.toContain(secret);
    }
  }, 180_000);
});
