// The bot children run compiled, as `npm start` runs the bot: `npm run build` once per bench run, then plain node.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const REPO_DIR = fileURLToPath(new URL('../../', import.meta.url));
export const DIST_DIR = fileURLToPath(new URL('../../dist/', import.meta.url));

let built: Promise<void> | undefined;

/** Runs `npm run build` (fresh dist/ from the current sources) the first time it is asked; later calls share it. */
export function buildOnce(): Promise<void> {
  built ??= new Promise<void>((resolve, reject) => {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    execFile(
      npm,
      ['run', 'build', '--silent'],
      { cwd: REPO_DIR, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`npm run build failed, so the bot cannot run compiled:\n${stdout}${stderr}`.trim()));
        else resolve();
      },
    );
  });
  return built;
}

/** npm start's build check, preloaded before the bot: the bench builds once itself (buildOnce). */
const BUILD_PRELOAD = /^--import=(\.\/)?scripts\/build\.mjs$/;

/**
 * The node flags `npm start` passes before dist/src/bot/main.js (read from package.json), so the bench's
 * bot children run with exactly the V8 settings production uses and no others (the build check left out).
 */
export function startNodeFlags(startScript = packageStartScript()): string[] {
  const m = /(?:^|&&\s*)node((?:\s+--\S+)*)\s+dist\/src\/bot\/main\.js\s*$/.exec(startScript);
  if (!m) {
    throw new Error(
      `package.json "start" should end with "node [flags] dist/src/bot/main.js" for the bench to run the bot the same way (it is "${startScript}")`,
    );
  }
  return (m[1] ?? '').split(/\s+/).filter((flag) => flag !== '' && !BUILD_PRELOAD.test(flag));
}

function packageStartScript(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    scripts?: Record<string, string>;
  };
  return pkg.scripts?.start ?? '';
}
