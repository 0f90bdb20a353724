// A vite plugin for the desk-starting projects: a test's import of src/ or commands/ loads the run's transpiled copy
// (test/support/bot-js.ts) natively, instead of through vitest's module runner. Every import of one module then goes
// to the same JavaScript file (the test's, the support code's and the bot's own), so the module graph is one, as
// under the runner; it is only cheaper to load: the runner took about 4 s per end-to-end file to import the bot.
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { BOT_JS_ENV } from './bot-js.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TRANSPILED = [join(ROOT, 'src/'), join(ROOT, 'commands/')];

export function transpiledSources(): Plugin {
  return {
    name: 'desk-transpiled-sources',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      const dir = process.env[BOT_JS_ENV];
      if (!dir || !importer) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved || resolved.external) return null;
      const id = resolved.id.split('?')[0]!;
      if (!id.endsWith('.ts') || id.endsWith('.d.ts') || !TRANSPILED.some((root) => id.startsWith(root))) return null;
      return { id: join(dir, relative(ROOT, id)).replace(/\.ts$/, '.js'), external: true };
    },
  };
}
