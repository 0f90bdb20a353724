// A throwaway PostgreSQL cluster for tests and the bench: Debian's server programs, a data folder in a temp
// dir, a free loopback port, trust auth; stopped and deleted at the end. As root the programs run as the
// `postgres` user (initdb refuses root).
import { execFile } from 'node:child_process';
import {
  appendFileSync,
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { testPort } from '../support/ports.js';

const run = promisify(execFile);

export interface PgCluster {
  /** URL of the cluster's `postgres` database (create per-test databases from it). */
  adminUrl: string;
  /** The server's major version, e.g. '15'. */
  version: string;
  stop(): Promise<void>;
}

function binDir(): { bin: string; version: string } {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions[0] === undefined) {
    throw new Error(
      'PostgreSQL server programs not found under /usr/lib/postgresql; install them with `apt-get install -y postgresql`',
    );
  }
  return { bin: join(root, versions[0], 'bin'), version: versions[0] };
}

/** For a cluster other machines (containers) reach: their addresses, and the password they log in with. */
export interface PgClusterOptions {
  /** Listen on every address too (default: 127.0.0.1 only). */
  listenEverywhere?: boolean;
  /** Password for `postgres` over TCP (scram-sha-256); without it TCP logins are trusted, on loopback only. */
  password?: string;
  /** CIDR that may log in over TCP with the password, e.g. a container network's subnet. */
  allowFrom?: string;
  /** More server settings, each passed as `-c name=value` (e.g. shared_preload_libraries=pg_stat_statements). */
  settings?: Record<string, string>;
}

export async function startPgCluster(opts: PgClusterOptions = {}): Promise<PgCluster> {
  const { bin, version } = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'pg-test-'));
  const data = join(dir, 'data');
  const asRoot = userInfo().uid === 0;
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  const as = (prog: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, prog), ...args]) : run(join(bin, prog), args);
  const auth = ['--auth=trust'];
  if (opts.password) {
    const pwfile = join(dir, 'pw');
    writeFileSync(pwfile, `${opts.password}\n`, { mode: 0o600 });
    if (asRoot) chownSync(pwfile, statSync(dir).uid, statSync(dir).gid);
    auth.splice(0, 1, '--auth-local=trust', '--auth-host=scram-sha-256', `--pwfile=${pwfile}`);
  }
  await as('initdb', ['-D', data, ...auth, '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C']);
  if (opts.allowFrom) appendFileSync(join(data, 'pg_hba.conf'), `host all all ${opts.allowFrom} scram-sha-256\n`);
  const listenOn = opts.listenEverywhere ? '*' : '127.0.0.1';
  const log = join(dir, 'log');
  // A free port can be taken by another process between the probe and the server's bind: try another one.
  let port = 0;
  for (let attempt = 1; ; attempt++) {
    port = await testPort();
    // fsync off: a test cluster is thrown away, durability across OS crashes is not under test.
    const extra = Object.entries(opts.settings ?? {})
      .map(([k, v]) => ` -c ${k}=${v}`)
      .join('');
    const options = `-p ${port} -k ${dir} -c listen_addresses=${listenOn} -c fsync=off -c max_connections=200${extra}`;
    try {
      await as('pg_ctl', ['-D', data, '-o', options, '-l', log, '-w', 'start']);
      break;
    } catch (err) {
      const taken = existsSync(log) && readFileSync(log, 'utf8').includes('Address already in use');
      if (!taken || attempt === 3) throw err;
      rmSync(log, { force: true });
    }
  }
  const login = opts.password ? `postgres:${encodeURIComponent(opts.password)}@` : 'postgres@';
  const adminUrl = `postgres://${login}127.0.0.1:${port}/postgres`;
  return {
    adminUrl,
    version,
    async stop() {
      await as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

let seq = 0;

/** A new database on the cluster, empty or a copy of `template` (a database name); returns its URL. */
export async function createDatabase(adminUrl: string, prefix = 't', template?: string): Promise<string> {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}_${seq++}`;
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    await c.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  } finally {
    await c.end();
  }
  return adminUrl.replace(/\/postgres$/, `/${name}`);
}
