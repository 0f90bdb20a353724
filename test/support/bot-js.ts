// The bot's sources transpiled once per test run, for the bot child processes the chaos and multi-process suites
// start and kill. Under tsx each start transformed every module again: about 3.4 s of CPU before the bot was ready,
// against 1.8 s for the same files as plain JavaScript, and a run starts a hundred or so. esbuild transpiles file by
// file exactly as tsx does (tsx is esbuild underneath), into a mirror of the repository's layout, so paths relative
// to a module (commands/ beside src/) still hold.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The child's entry inside the transpiled tree. */
export const BOT_PROCESS_JS = 'test/support/bot-process.js';
/** The environment variable that names the transpiled tree for spawnBot (set by the run's global setup). */
export const BOT_JS_ENV = 'DESK_BOT_JS_DIR';

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/**
 * Transpiles src/, commands/ and the child's entry into a fresh directory under node_modules/.cache (so the
 * packages resolve from the repository's node_modules) and returns it, with a function that removes it.
 */
export async function transpileBot(): Promise<{ dir: string; remove: () => void }> {
  const { build } = await import('esbuild');
  const cache = join(ROOT, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, 'desk-bot-js-'));
  const entries = [
    ...tsFiles(join(ROOT, 'src')),
    ...tsFiles(join(ROOT, 'commands')),
    join(ROOT, 'test/support/bot-process.ts'),
    join(ROOT, 'test/support/bot-entry.ts'),
  ];
  await build({
    entryPoints: entries,
    outdir: dir,
    outbase: ROOT,
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node.split('.')[0]}`,
    logLevel: 'warning',
  });
  // The playground's page, scripts and pictures, served from beside its module.
  const assets = 'src/local-discord/playground/public';
  cpSync(join(ROOT, assets), join(dir, assets), { recursive: true });
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ type: 'module' })}\n`);
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The transpiled tree this run made, or undefined (spawnBot then loads the sources under tsx). */
export function transpiledBotDir(): string | undefined {
  const dir = process.env[BOT_JS_ENV];
  if (!dir) return undefined;
  try {
    return statSync(join(dir, BOT_PROCESS_JS)).isFile() ? dir : undefined;
  } catch {
    return undefined;
  }
}
