// The bot children run compiled, as `npm start` runs the bot: `npm run build` once per bench run, then plain node.
import { execFile } from 'node:child_process';
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
