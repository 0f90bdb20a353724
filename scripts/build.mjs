// `npm start`'s build: nothing to do when dist/ is newer than every source it is built from; otherwise an
// incremental tsc (its build info kept in dist/), the playground's static page copied, and compiled files whose
// source is gone removed, so a deleted command never loads. `npm run build` is the clean build.
// `npm start` preloads this file (`node --import=./scripts/build.mjs dist/src/bot/main.js`): it runs before the
// entry point is read, in the bot's own process, so a start with nothing changed boots one node, not two. It
// can also be run on its own (`node scripts/build.mjs`).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(REPO, 'dist');
const STAMP = join(DIST, '.build-stamp');
/** What tsconfig.build.json compiles, plus the page copied beside it and the settings that change the output. */
const SOURCE_DIRS = ['src', 'commands', 'bench/children'];
const SOURCE_FILES = ['tsconfig.json', 'tsconfig.build.json', 'package.json', 'scripts/build.mjs'];
const SKIP = new Set(['node_modules', 'dist', '.pack']);
const PUBLIC = 'src/local-discord/playground/public';
/** How long the last build took here (seconds), so the next one can say what to expect. */
const LAST_BUILD = join(DIST, '.build-seconds');
/**
 * A whole build from nothing, emitting without type-checking, costs tsc about 10 s of CPU (9.1 s user measured
 * 2026-11-28; with the type check it was 24.7 s); an incremental one only what changed.
 */
const FIRST_BUILD_NOTE = 'a first build takes about 10 s on two quiet cores, half a minute on a busy machine';

/** A progress line on stdout, at once (npm start prints nothing else until the bot is up). */
function say(line) {
  process.stdout.write(`${line}\n`);
}

function lastBuildSeconds() {
  try {
    const s = Number(readFileSync(LAST_BUILD, 'utf8'));
    return Number.isFinite(s) && s > 0 ? s : undefined;
  } catch {
    return undefined;
  }
}

/** The newest modification time (ms) under `dir`, directories included (a deleted file changes its folder). */
function newest(dir) {
  let top = statSync(dir).mtimeMs;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const path = join(dir, entry.name);
    const t = entry.isDirectory() ? newest(path) : statSync(path).mtimeMs;
    if (t > top) top = t;
  }
  return top;
}

function sourcesNewest() {
  let top = 0;
  for (const d of SOURCE_DIRS) top = Math.max(top, newest(join(REPO, d)));
  for (const f of SOURCE_FILES) top = Math.max(top, statSync(join(REPO, f)).mtimeMs);
  return top;
}

/** Compiled .js (and .js.map) files under dist/<dir> whose .ts source no longer exists. */
function removeOrphans(dir) {
  const out = join(DIST, dir);
  if (!existsSync(out)) return;
  for (const entry of readdirSync(out, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !/\.js(\.map)?$/.test(entry.name)) continue;
    const path = join(entry.parentPath, entry.name);
    const rel = relative(DIST, path).replace(/\.js(\.map)?$/, '');
    if (rel.startsWith(PUBLIC)) continue;
    if (!existsSync(join(REPO, `${rel}.ts`)) && !existsSync(join(REPO, `${rel}.js`))) rmSync(path);
  }
}

function build() {
  const last = lastBuildSeconds();
  const expect = existsSync(join(DIST, '.tsbuildinfo'))
    ? `only what changed${last ? `; the last build here took ${last.toFixed(0)} s` : ''}`
    : FIRST_BUILD_NOTE;
  say(`Building dist/ from the TypeScript sources (${expect})…`);
  // The stamp carries the build's start time: a source saved while tsc runs is newer, so the next start builds.
  const started = new Date();
  const tsc = join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
  // --noCheck: emit without type-checking (`npm run typecheck` and CI check types). With isolatedModules and
  // verbatimModuleSyntax the emitted JavaScript does not depend on types, so it is the same files in under half the
  // time (22 s against 10 s of wall time, load 5 on two cores, 2026-11-28; decision 2022).
  const args = [
    '-p',
    'tsconfig.build.json',
    '--noCheck',
    '--incremental',
    '--tsBuildInfoFile',
    join(DIST, '.tsbuildinfo'),
  ];
  execFileSync(process.execPath, [tsc, ...args], { cwd: REPO, stdio: 'inherit' });
  const publicOut = join(DIST, PUBLIC);
  rmSync(publicOut, { recursive: true, force: true });
  cpSync(join(REPO, PUBLIC), publicOut, { recursive: true });
  for (const d of SOURCE_DIRS) removeOrphans(d);
  const seconds = (Date.now() - started.getTime()) / 1000;
  writeFileSync(LAST_BUILD, `${seconds.toFixed(1)}\n`);
  writeFileSync(STAMP, `${started.toISOString()}\n`);
  utimesSync(STAMP, started, started);
  say(`Built in ${seconds.toFixed(1)} s.`);
}

if (!existsSync(STAMP) || statSync(STAMP).mtimeMs < sourcesNewest()) build();
else say('dist/ is up to date: nothing to build. Loading the desk…');
