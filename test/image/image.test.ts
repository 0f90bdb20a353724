// `npm run test:image` (after `npm run image`): the desk's image, run by podman as an operator would run it. The
// sandbox gateway and the local Discord run here, on the host, listening where the containers reach them (the test
// network's gateway); everything the test does to the bot goes through them, from outside the container.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalDiscord, startLocalDiscord } from '../../src/local-discord/index.js';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { setBetRole } from '../support/bet-role.js';
import { type BettableSelection, betSlip, newTrail, pickEvent, press } from '../support/flows.js';
import { API_KEY, type Desk } from '../support/harness.js';
import { textOf } from '../support/messages.js';
import { SandboxControl } from '../support/sandbox-control.js';
import { until } from '../support/wait.js';
import {
  createSecret,
  ensureNetwork,
  HOST_FROM_CONTAINERS,
  httpStatus,
  IMAGE,
  NETWORK,
  podman,
  podmanOk,
  podmanRun,
  publishedPort,
  REPO,
  removeAll,
} from './podman.js';

const PLAYGROUND = 'desk-image-playground';
const BOT_A = 'desk-image-bot-a';
const BOT_B = 'desk-image-bot-b';
const VOLUME = 'desk-image-data';
const TOKEN_SECRET = 'desk-image-discord-token';
const KEY_SECRET = 'desk-image-gateway-key';
const NAMES = { containers: [PLAYGROUND, BOT_A, BOT_B], volumes: [VOLUME], secrets: [TOKEN_SECRET, KEY_SECRET] };

let sandbox: RunningSandbox;
let ld: LocalDiscord;
let control: SandboxControl;
/** What the flows in test/support need of a desk: the local Discord and the sandbox (the bot is in the container). */
let desk: Desk;

const hostUrl = (url: string) => url.replace('0.0.0.0', HOST_FROM_CONTAINERS);
const devDependencies = Object.keys(
  (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> })
    .devDependencies,
);

/** The bot on Discord in a container: the token and the key as podman secrets, the store on the volume. */
async function runBot(name: string, extraEnv: Record<string, string> = {}): Promise<{ receiver: string }> {
  const env = {
    DISCORD_APP_ID: ld.applicationId,
    DISCORD_GUILD_ID: ld.guildId,
    DISCORD_API_URL: hostUrl(ld.apiUrl),
    GATEWAY_BASE_URL: hostUrl(sandbox.url),
    DISCORD_TOKEN_FILE: '/run/secrets/discord-token',
    GATEWAY_API_KEY_FILE: '/run/secrets/gateway-api-key',
    BOT_PROCESS_ID: 'desk-image',
    SETTLEMENT_INTERVAL_SECONDS: '1',
    ...extraEnv,
  };
  await podmanOk([
    'run',
    '-d',
    '--name',
    name,
    '--network',
    NETWORK,
    '-p',
    '127.0.0.1::8790',
    '-v',
    `${VOLUME}:/data`,
    // Files only the desk's user reads; the process reads them through DISCORD_TOKEN_FILE and GATEWAY_API_KEY_FILE
    // (podman shows a type=env secret's value in `podman inspect` once the container has started).
    '--secret',
    `${TOKEN_SECRET},type=mount,target=discord-token,uid=10001,mode=0400`,
    '--secret',
    `${KEY_SECRET},type=mount,target=gateway-api-key,uid=10001,mode=0400`,
    // More than DRAIN_GRACE_SECONDS (20): podman's default 10 s would SIGKILL a drain.
    '--stop-timeout',
    '30',
    ...Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]),
    IMAGE,
  ]);
  const receiver = `http://127.0.0.1:${publishedPort(name, 8790)}`;
  await until('the bot in the container to be ready', async () => (await httpStatus(`${receiver}/readyz`)) === 200, {
    timeoutMs: 60_000,
    everyMs: 200,
    seen: () => podmanRun(['logs', '--tail', '20', name]).stderr.slice(-2000),
  });
  return { receiver };
}

beforeAll(async () => {
  // Fails here, loudly, when podman is missing or the image was not built: this suite never passes by skipping.
  const version = podmanRun(['version', '--format', '{{.Client.Version}}']);
  expect(version.code, `podman: ${version.stderr}`).toBe(0);
  expect(podmanRun(['image', 'exists', IMAGE]).code, `${IMAGE} is not built: run npm run image`).toBe(0);
  removeAll(NAMES);
  ensureNetwork();
  sandbox = await startSandbox({ port: 0, host: '0.0.0.0', control: true, seed: 1, quiet: true });
  control = new SandboxControl(sandbox.url);
  ld = await startLocalDiscord({ port: 0, host: '0.0.0.0' });
  desk = {
    ld,
    sandbox,
    control,
    advance: async (ms: number) => Date.parse((await control.advance(ms)).now),
  } as unknown as Desk;
  createSecret(TOKEN_SECRET, ld.token);
  createSecret(KEY_SECRET, API_KEY);
  podman(['volume', 'create', VOLUME]);
}, 60_000);

afterAll(async () => {
  removeAll(NAMES);
  await ld?.close();
  await sandbox?.close();
});

describe('the image, listed', () => {
  it('runs as a non-root user and carries no .env, token, test or dev dependency', () => {
    const inspected = JSON.parse(podman(['image', 'inspect', IMAGE]))[0] as {
      Config: { User: string; Env: string[] };
      Healthcheck?: { Test: string[] };
    };
    const config = inspected.Config;
    expect(config.User).toBe('10001:10001');
    expect(inspected.Healthcheck?.Test.join(' ')).toContain('/readyz');
    const envNames = config.Env.map((e) => e.split('=')[0]);
    for (const secret of ['DISCORD_TOKEN', 'GATEWAY_API_KEY', 'METRICS_TOKEN', 'STORE_URL']) {
      expect(envNames).not.toContain(secret);
    }
    const history = podman(['history', '--no-trunc', '--format', '{{.CreatedBy}}', IMAGE]);
    expect(history).not.toMatch(/DISCORD_TOKEN|GATEWAY_API_KEY|METRICS_TOKEN/);

    // Every file of the image, from its exported filesystem.
    const made = podman(['create', '--name', PLAYGROUND, IMAGE]);
    const dir = mkdtempSync(join(tmpdir(), 'desk-image-list-'));
    let files: string[];
    try {
      podman(['export', '-o', join(dir, 'fs.tar'), made]);
      files = execFileSync('tar', ['-tf', join(dir, 'fs.tar')], { encoding: 'utf8', maxBuffer: 1 << 28 })
        .split('\n')
        .map((f) => f.replace(/^\.\//, ''))
        .filter(Boolean);
    } finally {
      podmanRun(['rm', '-f', '-v', made]);
      rmSync(dir, { recursive: true, force: true });
    }
    expect(files.length).toBeGreaterThan(1000);
    const app = files.filter((f) => f.startsWith('opt/desk/'));
    expect(app).toContain('opt/desk/dist/src/bot/main.js');
    expect(app).toContain('opt/desk/node_modules/sqlite3/build/Release/node_sqlite3.node');
    expect(files.filter((f) => /(^|\/)\.env(\.|$)/.test(f))).toEqual([]);
    expect(app.filter((f) => /\/(test|tests|__tests__)\//.test(f))).toEqual([]);
    expect(
      app.filter(
        (f) =>
          f.startsWith('opt/desk/dist/') && f !== 'opt/desk/dist/' && !/^opt\/desk\/dist\/(src|commands)\//.test(f),
      ),
    ).toEqual([]);
    expect(app.filter((f) => /\.(test|spec)\.[cm]?[jt]s$/.test(f))).toEqual([]);
    for (const dev of [...devDependencies, 'vitest', 'vite', 'typescript', 'tsx', 'esbuild', 'node-gyp']) {
      expect(
        app.filter((f) => f.startsWith(`opt/desk/node_modules/${dev}/`)),
        dev,
      ).toEqual([]);
    }
    expect(app.filter((f) => f.startsWith('opt/desk/src/'))).toEqual([]);
  });
});

describe('the image with no token', () => {
  it('serves the playground page and /healthz, as npm start does', async () => {
    await podmanOk([
      'run',
      '-d',
      '--name',
      PLAYGROUND,
      '--network',
      NETWORK,
      '-p',
      '127.0.0.1::8791',
      '-p',
      '127.0.0.1::8790',
      IMAGE,
    ]);
    const page = `http://127.0.0.1:${publishedPort(PLAYGROUND, 8791)}`;
    const receiver = `http://127.0.0.1:${publishedPort(PLAYGROUND, 8790)}`;
    await until('the playground page', async () => (await httpStatus(page)) === 200, { timeoutMs: 60_000 });
    const html = await (await fetch(page)).text();
    expect(html).toMatch(/<html/i);
    const health = await fetch(`${receiver}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ ok: true });
    await until('ready', async () => (await httpStatus(`${receiver}/readyz`)) === 200, { timeoutMs: 30_000 });
    // The image's HEALTHCHECK, run as the engine runs it.
    let check = '';
    await until(
      'the HEALTHCHECK to pass',
      () => {
        const r = podmanRun(['healthcheck', 'run', PLAYGROUND]);
        check = `exit ${r.code}: ${r.stdout}${r.stderr}`;
        return r.code === 0;
      },
      { timeoutMs: 30_000, everyMs: 1000, seen: () => check },
    );
    expect(podman(['exec', PLAYGROUND, 'id', '-u'])).toBe('10001');
    expect(podman(['logs', PLAYGROUND])).toContain('Offline playground');
    await podmanOk(['rm', '-f', '-v', '-t', '5', PLAYGROUND]);
  });
});

describe('the bot on Discord in the image, its store on a volume', () => {
  let sel: BettableSelection;
  let slipId: string;

  it('places a bet confirmed through the local Discord once', async () => {
    await runBot(BOT_A);
    await ld.waitForBot(30_000);
    await until('the bot to register its slash commands', () => ld.commands().length > 0, { timeoutMs: 30_000 });
    await setBetRole(ld, ld.roleIds.bettor, 30_000);
    sel = await pickEvent(desk, 'nba', 0);
    const trail = newTrail();
    const { bettor } = ld.users;
    const { slip } = await betSlip(desk, trail, { user: bettor, sel, stake: 7, timeoutMs: 30_000 });
    slipId = slip.id;
    await press(desk, trail, bettor, slip, /^Confirm$/);
    await until('the slip to show the bet placed', () => /Bet placed ✅/.test(textOf(ld.message(slipId))), {
      timeoutMs: 30_000,
      seen: () => textOf(ld.message(slipId)),
    });
    const bets = (await control.state()).bets.filter((b) => JSON.stringify(b.bet).includes(sel.epk));
    expect(bets.map((b) => Number(b.bet.stake))).toEqual([7]);
  }, 180_000);

  it('drains on podman stop (SIGTERM) and exits 0', async () => {
    const t0 = Date.now();
    await podmanOk(['stop', BOT_A]);
    const stoppedIn = Date.now() - t0;
    const state = JSON.parse(podman(['inspect', BOT_A]))[0].State as { ExitCode: number; OOMKilled: boolean };
    expect(state.ExitCode).toBe(0);
    // Well inside the stop timeout: the drain ended the process, not podman's SIGKILL.
    expect(stoppedIn).toBeLessThan(25_000);
    const logs = podmanRun(['logs', BOT_A]);
    expect(logs.stdout + logs.stderr).toContain('SIGTERM: draining');
    // Neither secret was ever printed, nor kept in the container's configuration.
    const inspected = podman(['inspect', BOT_A]);
    for (const secret of [ld.token, API_KEY]) {
      expect(logs.stdout + logs.stderr).not.toContain(secret);
      expect(inspected).not.toContain(secret);
    }
  }, 60_000);

  it('resumes in a second container on the same volume: the bet it never saw placed is settled and told once', async () => {
    await until('the old gateway session to close', () => ld.connectedBots === 0, { timeoutMs: 10_000 });
    // The bet settles while no bot runs; only the record on the volume tells the new container about it.
    expect((await control.settle(sel.epk)).settled).toBeGreaterThanOrEqual(1);
    await runBot(BOT_B);
    const notices = () =>
      ld.messages(ld.channelIds.bets).filter((m) => /^(Won|Lost|Void|Cashed out)/.test(m.embeds[0]?.title ?? ''));
    await until('the settlement notice', () => notices().length === 1, { timeoutMs: 30_000 });
    await new Promise((r) => setTimeout(r, 2_500));
    expect(notices()).toHaveLength(1);
    expect(textOf(ld.message(slipId))).toMatch(/Bet placed ✅/);
    await podmanOk(['stop', BOT_B]);
    expect(JSON.parse(podman(['inspect', BOT_B]))[0].State.ExitCode).toBe(0);
  }, 120_000);
});
